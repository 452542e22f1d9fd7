import { joinChunks } from './encodings.js';

/**
 * A body read whole, but never past a bound: its chunks are counted as they arrive, and the
 * reading stops (the stream cancelled, `tooLarge()` thrown) the moment they pass `maxBytes`, so a
 * sender that declares no length, or lies about it, cannot fill the memory.
 */
export async function readBounded(
  stream: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const reader = stream?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return joinChunks(chunks, length);
}
