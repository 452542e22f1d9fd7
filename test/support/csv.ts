/**
 * A strict reader of RFC 4180 CSV (§2), written apart from the service's writer so a test checks
 * the writer against the standard, not against itself: every record ends in CRLF, a quoted field
 * may hold commas, CR, LF and doubled quotes, and anything else (a bare quote in an unquoted
 * field, a lone LF as a line end, text after a closing quote) is an error.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  while (index < text.length) {
    let field = '';
    if (text[index] === '"') {
      index++;
      for (;;) {
        if (index >= text.length) throw new Error('unterminated quoted field');
        const char = text[index]!;
        if (char === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index++;
          break;
        }
        field += char;
        index++;
      }
    } else {
      while (index < text.length && text[index] !== ',' && text[index] !== '\r') {
        if (text[index] === '"' || text[index] === '\n') {
          throw new Error(`a bare ${JSON.stringify(text[index])} at ${index}`);
        }
        field += text[index];
        index++;
      }
    }
    record.push(field);
    if (text[index] === ',') {
      index++;
      continue;
    }
    if (text.startsWith('\r\n', index)) {
      index += 2;
      records.push(record);
      record = [];
      continue;
    }
    throw new Error(`expected , or CRLF at ${index}`);
  }
  if (record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}
