import { inArray } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { rowCounts } from './schema';

/**
 * Running totals kept by the triggers of decision 0104, read by name from row_counts' primary key: a few
 * rows whatever the size of the tables they count. A total whose row does not exist yet reads 0.
 */
export async function runningCounts<Name extends string>(db: DbOrTx, names: readonly Name[]): Promise<Record<Name, number>> {
  const rows = await db.select({ name: rowCounts.name, n: rowCounts.n }).from(rowCounts).where(inArray(rowCounts.name, [...names]));
  const found = new Map(rows.map((r) => [r.name, Number(r.n)]));
  return Object.fromEntries(names.map((name) => [name, found.get(name) ?? 0])) as Record<Name, number>;
}
