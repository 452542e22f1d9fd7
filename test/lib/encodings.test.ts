import { describe, expect, it } from 'vitest';
import { base64, base64url, hex, utf8 } from '../../src/lib/encodings.js';

/** RFC 4648 §10's test vectors, and the bytes base64url exists to change. */

const bytes = (text: string) => utf8.encode(text);

describe('the encodings', () => {
  it.each([
    ['', '', '', ''],
    ['f', 'Zg==', 'Zg', '66'],
    ['fo', 'Zm8=', 'Zm8', '666f'],
    ['foo', 'Zm9v', 'Zm9v', '666f6f'],
    ['foob', 'Zm9vYg==', 'Zm9vYg', '666f6f62'],
    ['fooba', 'Zm9vYmE=', 'Zm9vYmE', '666f6f6261'],
    ['foobar', 'Zm9vYmFy', 'Zm9vYmFy', '666f6f626172'],
  ])('encode %j as base64 %j, base64url %j and hex %j', (text, b64, b64url, hexText) => {
    expect(base64(bytes(text))).toBe(b64);
    expect(base64url(bytes(text))).toBe(b64url);
    expect(hex(bytes(text))).toBe(hexText);
  });

  it("writes base64's + and / as - and _ in base64url, and two digits for every byte in hex", () => {
    const data = new Uint8Array([0xfb, 0xff, 0x00, 0x0f]);
    expect(base64(data)).toBe('+/8ADw==');
    expect(base64url(data)).toBe('-_8ADw');
    expect(hex(data)).toBe('fbff000f');
  });

  it('encodes text as UTF-8', () => {
    expect([...utf8.encode('é€')]).toEqual([0xc3, 0xa9, 0xe2, 0x82, 0xac]);
  });
});
