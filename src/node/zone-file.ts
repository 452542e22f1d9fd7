import { readFile } from 'node:fs/promises';
import { type DnsblZone, parseZoneList } from '../reputation/index.js';

/**
 * Reads the zone list DNSBL_ZONES_FILE names, in the bundled list's format (docs/zone-list.md).
 * A file that cannot be read, or is not such a list, throws one line naming the variable and
 * what went wrong at which step.
 */
export async function readZoneListFile(file: string): Promise<DnsblZone[]> {
  let step = 'cannot be read';
  try {
    const text = await readFile(file, 'utf8');
    step = 'is not JSON';
    const json: unknown = JSON.parse(text);
    step = 'is not a zone list';
    return parseZoneList(json);
  } catch (error) {
    throw new Error(
      `DNSBL_ZONES_FILE: ${file} ${step} (${(error as Error).message}): fix it, or unset DNSBL_ZONES_FILE for the bundled list`,
      { cause: error },
    );
  }
}
