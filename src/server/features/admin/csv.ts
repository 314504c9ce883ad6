/**
 * CSV that a spreadsheet opens as plain data. A cell starting with = + - @ (or a tab or carriage
 * return) would be run as a formula by Excel, LibreOffice and Google Sheets, so it is prefixed with a
 * single quote; every field is quoted (RFC 4180), with inner quotes doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

// CRLF line ends per RFC 4180; the BOM makes Excel read the file as UTF-8.
const BOM = '\uFEFF';
const csvLines = (rows: unknown[][]) => rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');

export function toCsv(header: string[], rows: unknown[][]): string {
  return BOM + csvLines([header, ...rows]);
}

/**
 * The same file, written batch by batch as the rows are read (decision 0071): one batch in memory at a
 * time, whatever the list's size, and the event loop free between batches.
 */
export async function* csvStream(header: string[], batches: AsyncIterable<unknown[][]>): AsyncGenerator<string> {
  yield BOM + csvLines([header]);
  for await (const rows of batches) yield csvLines(rows);
}
