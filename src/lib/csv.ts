/**
 * CSV as RFC 4180 writes it (§2): records end in CRLF, a field holding a comma, a double quote,
 * CR or LF is enclosed in double quotes, and a double quote inside one is written twice.
 *
 * Cells come from DNS and from third parties (list names, the meanings of their codes), and a
 * spreadsheet reads a cell beginning with `=`, `+`, `-` or `@` (or a tab or CR before one of them)
 * as a formula (OWASP, "CSV Injection"): such a cell gets a leading `'`, which spreadsheets show
 * as text and do not evaluate. Numbers are written as numbers, so a negative one would be left
 * alone; the cells that are text are guarded.
 */

export type CsvCell = string | number;

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** One field: guarded against formulas when it is text, quoted when RFC 4180 asks for it. */
export function csvField(cell: CsvCell): string {
  if (typeof cell === 'number') return String(cell);
  const text = formulaStart.test(cell) ? `'${cell}` : cell;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole document: the header, then each record, every line ended by CRLF (RFC 4180 §2.1-2.3). */
export function csvDocument(header: readonly string[], records: readonly CsvCell[][]): string {
  return [header, ...records].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}
