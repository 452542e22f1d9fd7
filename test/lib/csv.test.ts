import { describe, expect, it } from 'vitest';
import { csvDocument, csvField } from '../../src/lib/index.js';
import { parseCsv } from '../support/csv.js';

/** src/lib/csv.ts: RFC 4180 §2 fields and records, and the formula guard. */

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['one\r\ntwo', '"one\r\ntwo"'],
    ['one\ntwo', '"one\ntwo"'],
    ['', ''],
    ['caf\u00e9 \u0441\u043f\u0430\u043c', 'caf\u00e9 \u0441\u043f\u0430\u043c'],
  ])('writes %j as %j', (cell, field) => {
    expect(csvField(cell)).toBe(field);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
  ])('guards the formula %j as %j', (cell, field) => {
    expect(csvField(cell)).toBe(field);
  });

  it('writes numbers as numbers, a negative one too', () => {
    expect(csvField(40)).toBe('40');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('csvDocument', () => {
  it('ends every record, the last too, in CRLF, and reads back', () => {
    const text = csvDocument(
      ['a', 'b'],
      [
        ['x, y', 1],
        ['"q"', 'line\nbreak'],
      ],
    );
    expect(text).toBe('a,b\r\n"x, y",1\r\n"""q""","line\nbreak"\r\n');
    expect(parseCsv(text)).toEqual([
      ['a', 'b'],
      ['x, y', '1'],
      ['"q"', 'line\nbreak'],
    ]);
  });

  it('is the header alone when there is nothing to write', () => {
    expect(csvDocument(['a', 'b'], [])).toBe('a,b\r\n');
  });
});

describe('the test reader (test/support/csv.ts)', () => {
  it('reads the RFC 4180 §2 examples', () => {
    expect(parseCsv('aaa,bbb,ccc\r\nzzz,yyy,xxx\r\n')).toEqual([
      ['aaa', 'bbb', 'ccc'],
      ['zzz', 'yyy', 'xxx'],
    ]);
    expect(parseCsv('"aaa","b\r\nbb","ccc"\r\n')).toEqual([['aaa', 'b\r\nbb', 'ccc']]);
    expect(parseCsv('"aaa","b""bb","ccc"\r\n')).toEqual([['aaa', 'b"bb', 'ccc']]);
  });

  it.each([
    ['a bare quote', 'a"b\r\n'],
    ['a bare LF', 'a\nb\r\n'],
    ['no CRLF at the end', 'a,b'],
    ['text after a closing quote', '"a"b\r\n'],
  ])('refuses %s', (_, text) => {
    expect(() => parseCsv(text)).toThrow();
  });
});
