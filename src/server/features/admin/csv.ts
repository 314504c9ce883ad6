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

export function toCsv(header: string[], rows: unknown[][]): string {
  // CRLF line ends per RFC 4180; the BOM makes Excel read the file as UTF-8.
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
