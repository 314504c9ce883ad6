import { setImmediate as nextTurn } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgSelect } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import type { Cursor } from '@shared/schemas/pages';
import type { DbOrTx } from '../../db/client';
import { cursorKey, type Keyset, keysetStretch } from '../../db/keyset';
import type { Reports } from '../../platform/operations/reports';
import { csvField, csvFieldLines, csvStream, withCrlf } from './csv';

/** Rows an export reads at a time: what it holds in memory, whatever the list's size. */
export const EXPORT_BATCH = 1000;

/** A list as its CSV export reads it (decision 0111). */
export interface KeysetExport {
  keyset: Keyset;
  /** The file's cells, in the header's order, as SQL text (null for an empty cell); csvField makes them safe. */
  cells: SQL[];
  /** The list's rows within `range` (a stretch of the keyset), selecting `columns`, in the keyset's order. */
  rows: (db: DbOrTx, columns: Record<string, SQL>, range: SQL | undefined) => PgSelect;
  /** Called once the last batch has been read, with the number of rows written (the audit). */
  done: (rows: number) => Promise<void>;
}

const dialect = new PgDialect();

/** The statement with its values written in as literals, because COPY takes no parameters. */
function inlined(query: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(query.inlineParams());
  if (params.length > 0) throw new Error('An export statement kept a parameter');
  return text;
}

const fields = (list: KeysetExport) => Object.fromEntries(list.cells.map((cell, at) => [`c${at}`, csvField(cell)]));
const keyOf = (list: KeysetExport) => ({ cursorKey: cursorKey(list.keyset), id: sql`${list.keyset.id}` });

/**
 * A whole list read in keyset batches (decision 0071), each a report of its own, so an export holds one
 * batch in memory and never a connection for its whole length, and gives the site a turn between batches.
 * No row is written twice or skipped, as each batch starts after the last row of the one before.
 *
 * On PostgreSQL the database writes each batch as CSV itself (`COPY ... TO STDOUT`, decision 0111): the bytes
 * arrive as buffers and go out as they are, so no row becomes an object on the server's heap. Each batch's
 * last key is read first (an index range, as cheap as the page it ends), and the copy takes the rows up to
 * it. On PGlite the rows are read and joined here.
 */
export async function* keysetBatches(reports: Reports, list: KeysetExport, signal?: AbortSignal): AsyncGenerator<string | Buffer> {
  let after: Cursor | undefined;
  let rows = 0;
  for (;;) {
    const from = after;
    const batch = await reports.run(async (reportDb, copyOut) => {
      if (!copyOut) {
        const found = (await list.rows(reportDb, { ...fields(list), ...keyOf(list) }, keysetStretch(list.keyset, from, undefined)).limit(EXPORT_BATCH)) as Array<
          Record<string, string> & { cursorKey: string; id: number }
        >;
        const last = found.length === EXPORT_BATCH ? found[EXPORT_BATCH - 1] : undefined;
        const text = csvFieldLines(found.map((row) => list.cells.map((_, at) => row[`c${at}`])));
        return { text, count: found.length, last: last && { key: last.cursorKey, id: last.id } };
      }
      const [edge] = (await list
        .rows(reportDb, keyOf(list), keysetStretch(list.keyset, from, undefined))
        .offset(EXPORT_BATCH - 1)
        .limit(1)) as Array<{ cursorKey: string; id: number }>;
      const last = edge && { key: edge.cursorKey, id: edge.id };
      const copy = copyOut(`COPY (${inlined(list.rows(reportDb, fields(list), keysetStretch(list.keyset, from, last)).getSQL())}) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)`);
      const chunks: Buffer[] = [];
      for await (const chunk of copy) chunks.push(chunk as Buffer);
      return { text: withCrlf(Buffer.concat(chunks)), count: copy.rowCount, last };
    }, signal);
    rows += batch.count;
    if (batch.count > 0) yield batch.text;
    if (!batch.last) break;
    after = batch.last;
    await nextTurn();
  }
  await list.done(rows);
}

/** Sends the batches as a CSV download named `<name>-<date>.csv`, written as it is read. */
export function sendCsv(reply: FastifyReply, name: string, now: Date, header: string[], batches: AsyncIterable<string | Buffer>) {
  reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`)
    .header('Cache-Control', 'no-store');
  return reply.send(Readable.from(csvStream(header, batches)));
}
