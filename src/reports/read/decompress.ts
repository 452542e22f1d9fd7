import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import { joinChunks } from '../../lib/index.js';
import type { ReadBudget } from './budget.js';
import { invalidReport, ReportReadError, reportTooLarge } from './errors.js';

/**
 * gzip (RFC 1952) and zip archives expanded with fflate's streaming inflaters, counting every
 * byte they hand out against the body's budget, so a bomb stops at REPORTS_MAX_BYTES while it
 * expands: the sizes a gzip trailer or a zip header claim are never trusted, nor used to size a
 * buffer.
 */

/**
 * The input is pushed this many bytes at a time. DEFLATE (RFC 1951) expands a byte to at most
 * about a thousand (a 258-byte match per two bits at best), so one push yields at most about 4 MB
 * and the bound is checked between pushes; smaller pushes cost time on honest reports, which
 * inflate about twentyfold.
 */
const pushBytes = 4096;

/** A zip holds one report or a handful; more files than this is no report archive. */
export const maxZipEntries = 1000;

export function gunzip(data: Uint8Array, budget: ReadBudget): Uint8Array {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const inflater = new Gunzip((chunk) => {
    budget.expand(chunk.length);
    chunks.push(chunk);
    length += chunk.length;
  });
  try {
    pushAll(data, (chunk, final) => inflater.push(chunk, final));
  } catch (error) {
    if (error instanceof ReportReadError) throw error;
    // Bytes after the last gzip member are not another member (Mimecast ends its attachment with
    // a line break): what was inflated before them stands.
    if (length > 0 && isTrailingGarbage(error)) return joinChunks(chunks, length);
    throw invalidReport(`the gzip data is damaged or cut short (${errorText(error)})`);
  }
  return joinChunks(chunks, length);
}

/** One file of a zip archive, expanded. */
export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/** Every file of a zip archive (folders left out), read from its local headers as it streams. */
export function unzip(data: Uint8Array, budget: ReadBudget): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let failure: unknown;
  let files = 0;
  const unzipper = new Unzip((file) => {
    if (file.name.endsWith('/') || failure !== undefined) return;
    if (++files > maxZipEntries) {
      failure = reportTooLarge(`the zip holds more than ${maxZipEntries} files`);
      return;
    }
    const chunks: Uint8Array[] = [];
    let length = 0;
    file.ondata = (error, chunk, final) => {
      if (failure !== undefined) return;
      if (error) {
        failure = invalidReport(`zip entry "${file.name}" cannot be read (${errorText(error)})`);
        return;
      }
      try {
        budget.expand(chunk.length);
      } catch (bound) {
        failure = bound;
        file.terminate();
        return;
      }
      chunks.push(chunk);
      length += chunk.length;
      if (final) entries.push({ name: file.name, bytes: joinChunks(chunks, length) });
    };
    file.start();
  });
  unzipper.register(UnzipInflate);
  try {
    pushAll(data, (chunk, final) => {
      unzipper.push(chunk, final);
      if (failure !== undefined) throw failure;
    });
  } catch (error) {
    if (error instanceof ReportReadError) throw error;
    throw invalidReport(`the zip archive is damaged or cut short (${errorText(error)})`);
  }
  return entries;
}

function pushAll(data: Uint8Array, push: (chunk: Uint8Array, final: boolean) => void): void {
  if (data.length === 0) push(data, true);
  for (let offset = 0; offset < data.length; offset += pushBytes) {
    const end = Math.min(offset + pushBytes, data.length);
    push(data.subarray(offset, end), end === data.length);
  }
}

/** fflate's "invalid gzip data" is what it says when the bytes after a member are no header. */
function isTrailingGarbage(error: unknown): boolean {
  return error instanceof Error && /invalid gzip data/.test(error.message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
