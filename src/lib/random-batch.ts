/**
 * Random bytes drawn from the platform's cryptographic generator a batch at a time and handed out
 * in slices, as the DNS query IDs are (src/node/dns/query-ids.ts): a token takes 16 bytes, and one
 * call into the generator per check showed in the profile of uncached checks (docs/benchmarks.md).
 * Every slice is a copy of bytes no other call was given; a request larger than a batch goes to
 * the generator as it is.
 */
export function batchedRandomBytes(
  generate: (length: number) => Uint8Array,
  batchBytes = 4096,
): (length: number) => Uint8Array {
  let batch: Uint8Array = new Uint8Array(0);
  let next = 0;
  return (length) => {
    if (length > batchBytes) return generate(length);
    if (next + length > batch.length) {
      batch = generate(batchBytes);
      next = 0;
    }
    const bytes = batch.slice(next, next + length);
    next += length;
    return bytes;
  };
}
