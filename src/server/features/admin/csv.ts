import { sql, type SQL } from 'drizzle-orm';

/**
 * CSV that a spreadsheet opens as plain data. A cell starting with = + - @ (or a tab or carriage
 * return) would be run as a formula by Excel, LibreOffice and Google Sheets, so it is prefixed with a
 * single quote; every field is quoted (RFC 4180), with inner quotes doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return quoted(text);
}

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The same rule for a cell the database writes (the exports, decision 0111): the cell as text, empty for
 * null, a quote put before a formula's first character. PostgreSQL's expressions take FORMULA_START as it is.
 */
export const csvField = (cell: SQL) => sql<string>`regexp_replace(coalesce((${cell})::text, ''), ${`^(${FORMULA_START.source.slice(1)})`}, ${"'\\1"})`;

/** A timestamp as JavaScript's toISOString writes it (milliseconds, UTC), so every file writes times alike. */
export const csvTime = (value: SQL | unknown) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// CRLF line ends per RFC 4180; the BOM makes Excel read the file as UTF-8.
const BOM = '\uFEFF';
export const csvLines = (rows: unknown[][]) => rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
/** Records of cells csvField has already made safe: quoted only. */
export const csvFieldLines = (rows: string[][]) => rows.map((row) => `${row.map(quoted).join(',')}\r\n`).join('');

export function toCsv(header: string[], rows: unknown[][]): string {
  return BOM + csvLines([header, ...rows]);
}

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * PostgreSQL's COPY ends each record with LF alone; RFC 4180 wants CRLF. Every field is quoted and inner
 * quotes are doubled, so a record ends at an LF outside quotes, and an LF inside them is the field's own.
 * (Neither byte occurs inside a multi-byte UTF-8 character.)
 */
export function withCrlf(text: Buffer): Buffer {
  const parts: Buffer[] = [];
  let inQuotes = false;
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const byte = text[at];
    if (byte === QUOTE) inQuotes = !inQuotes;
    else if (byte === LF && !inQuotes) {
      parts.push(text.subarray(from, at), CRLF);
      from = at + 1;
    }
  }
  parts.push(text.subarray(from));
  return Buffer.concat(parts);
}

/**
 * The file, written batch by batch as the rows are read (decision 0071): one batch in memory at a time,
 * whatever the list's size, and the event loop free between batches.
 */
export async function* csvStream(header: string[], batches: AsyncIterable<string | Buffer>): AsyncGenerator<string | Buffer> {
  yield BOM + csvLines([header]);
  yield* batches;
}
