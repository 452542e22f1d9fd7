import { readFile } from 'node:fs/promises';
import { type DnsblZone, parseZoneList } from '../reputation/index.js';

/** Reads the zone list DNSBL_ZONES_FILE names, in the bundled list's format (docs/zone-list.md). */
export async function readZoneListFile(file: string): Promise<DnsblZone[]> {
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`zone list ${file} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseZoneList(json);
}
