/**
 * Just enough DER (ITU-T X.690 §8, §10) to read an RSA public key's modulus size: a DKIM key
 * record's `p=` holds a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7), or from some publishers the
 * bare RSAPublicKey it wraps (RFC 8017 §A.1.1). Web Crypto reads only the first form and only
 * asynchronously; the size is all the check needs.
 */

interface Element {
  tag: number;
  /** Where the contents start and end in the buffer. */
  start: number;
  end: number;
}

const sequenceTag = 0x30;
const integerTag = 0x02;
const bitStringTag = 0x03;
const oidTag = 0x06;
/** rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017 §A.1), as DER content octets. */
const rsaEncryption = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/** The element at `at`, or undefined when its header or length runs past `limit`. */
function elementAt(bytes: Uint8Array, at: number, limit: number): Element | undefined {
  if (at + 2 > limit) return undefined;
  const tag = bytes[at]!;
  let length = bytes[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    // §8.1.3.5: the long form, the low bits counting the length octets that follow.
    const octets = length & 0x7f;
    if (octets === 0 || octets > 3 || start + octets > limit) return undefined;
    length = 0;
    for (let index = 0; index < octets; index++) length = length * 256 + bytes[start + index]!;
    start += octets;
  }
  const end = start + length;
  return end > limit ? undefined : { tag, start, end };
}

/** The elements inside a constructed element, in order. */
function childrenOf(bytes: Uint8Array, parent: Element): Element[] | undefined {
  const children: Element[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = elementAt(bytes, at, parent.end);
    if (!child) return undefined;
    children.push(child);
    at = child.end;
  }
  return children;
}

/** The bits of a non-negative INTEGER's value (§8.3: leading zero octets carry no value). */
function integerBits(bytes: Uint8Array, integer: Element): number {
  let at = integer.start;
  while (at < integer.end && bytes[at] === 0) at++;
  if (at === integer.end) return 0;
  return (integer.end - at - 1) * 8 + (32 - Math.clz32(bytes[at]!));
}

/** RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 §A.1.1). */
function modulusBitsOf(bytes: Uint8Array, element: Element): number | undefined {
  if (element.tag !== sequenceTag) return undefined;
  const parts = childrenOf(bytes, element);
  if (parts?.length !== 2 || parts.some((part) => part.tag !== integerTag)) return undefined;
  return integerBits(bytes, parts[0]!);
}

function isRsaAlgorithm(bytes: Uint8Array, algorithm: Element): boolean {
  const [oid] = childrenOf(bytes, algorithm) ?? [];
  if (oid?.tag !== oidTag || oid.end - oid.start !== rsaEncryption.length) return false;
  return rsaEncryption.every((octet, index) => bytes[oid.start + index] === octet);
}

/**
 * The modulus size in bits of an RSA public key in DER, SubjectPublicKeyInfo or bare
 * RSAPublicKey; undefined for anything else (another algorithm, bytes that are no key).
 */
export function rsaModulusBits(bytes: Uint8Array): number | undefined {
  const outer = elementAt(bytes, 0, bytes.length);
  if (outer?.tag !== sequenceTag || outer.end !== bytes.length) return undefined;
  const parts = childrenOf(bytes, outer);
  if (!parts) return undefined;
  const [first, second] = parts;
  if (first?.tag === integerTag) return modulusBitsOf(bytes, outer);
  // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
  if (parts.length !== 2 || first?.tag !== sequenceTag || second?.tag !== bitStringTag) {
    return undefined;
  }
  if (!isRsaAlgorithm(bytes, first)) return undefined;
  // §8.6.2: the BIT STRING's first octet counts unused bits, 0 for a key.
  if (bytes[second.start] !== 0) return undefined;
  const key = elementAt(bytes, second.start + 1, second.end);
  return key && key.end === second.end ? modulusBitsOf(bytes, key) : undefined;
}
