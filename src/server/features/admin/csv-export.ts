import { setImmediate as nextTurn } from 'node:timers/promises';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Cursor } from '@shared/schemas/pages';
import type { DbOrTx } from '../../db/client';
import type { Reports } from '../../platform/operations/reports';
import { csvStream } from './csv';

/** Rows an export reads at a time: what it holds in memory, whatever the list's size. */
export const EXPORT_BATCH = 1000;

/** A row as an export reads it: its id and its sort value as the database writes it (the keyset's cursor). */
export interface KeysetRow {
  id: number;
  cursorKey: string;
}

export interface KeysetExport<R extends KeysetRow> {
  /** Up to `limit` rows after `after` (from the start without it), in the keyset's order. */
  read: (reportDb: DbOrTx, after: Cursor | undefined, limit: number) => Promise<R[]>;
  /** The CSV cells of one row. */
  cells: (row: R) => unknown[];
  /** Called once the last batch has been read, with the number of rows written (the audit). */
  done: (rows: number) => Promise<void>;
}

/**
 * A whole list read in keyset batches (decision 0071), each a report of its own, so an export holds one
 * batch in memory and never a connection for its whole length, and gives the site a turn between batches.
 * No row is written twice or skipped, as each batch starts after the last row of the one before.
 */
export async function* keysetBatches<R extends KeysetRow>(reports: Reports, list: KeysetExport<R>, signal?: AbortSignal): AsyncGenerator<unknown[][]> {
  let after: Cursor | undefined;
  let rows = 0;
  for (;;) {
    const from = after;
    const batch = await reports.run((reportDb) => list.read(reportDb, from, EXPORT_BATCH), signal);
    rows += batch.length;
    if (batch.length > 0) yield batch.map(list.cells);
    if (batch.length < EXPORT_BATCH) break;
    const last = batch[batch.length - 1];
    after = { key: last.cursorKey, id: last.id };
    await nextTurn();
  }
  await list.done(rows);
}

/** Sends the batches as a CSV download named `<name>-<date>.csv`, written as it is read. */
export function sendCsv(reply: FastifyReply, name: string, now: Date, header: string[], batches: AsyncIterable<unknown[][]>) {
  reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`)
    .header('Cache-Control', 'no-store');
  return reply.send(Readable.from(csvStream(header, batches)));
}
