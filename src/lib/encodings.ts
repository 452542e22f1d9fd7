/**
 * Bytes as text and text as bytes, the same on every runtime (Web APIs only: `btoa`,
 * `TextEncoder`), so no layer reaches for Node's `Buffer` to encode.
 */

/**
 * UTF-8, the one encoding `TextEncoder` has (WHATWG Encoding Standard §8.2): one instance for the
 * service, since an encoder holds no state between calls.
 */
export const utf8 = new TextEncoder();

/** RFC 4648 §4: base64 with padding (webhook secrets, Standard Webhooks' `whsec_` form). */
export function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** RFC 4648 §5: base64url without padding, the alphabet of ETags, tokens and watch ids. */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RFC 4648 §8: lowercase hexadecimal, two digits a byte (request ids, asset and caller hashes). */
export function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** Chunks as one array of bytes, copied once (a streamed body, an inflater's output). */
export function joinChunks(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}
