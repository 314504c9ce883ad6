import { and, sql, type SQL, type AnyColumn } from 'drizzle-orm';
import { encodeCursor, type Cursor } from '@shared/schemas/pages';

/**
 * Keyset pages (decision 0071): rows after a cursor are those whose (sort value, id) comes after the last
 * one seen, a range of the list's (sort, id) index, so a page costs the same wherever it is.
 */
export interface Keyset {
  /** The sort column; the list orders by it, then by `id`, both the same way. */
  sort: AnyColumn | SQL;
  id: AnyColumn;
  /** The sort column's type, to read the cursor's text back exactly (timestamps keep their microseconds). */
  type: 'timestamptz' | 'text';
  direction: 'asc' | 'desc';
}

export function afterCursor(keyset: Keyset, cursor: Cursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const past = keyset.direction === 'desc' ? sql.raw('<') : sql.raw('>');
  return sql`(${keyset.sort}, ${keyset.id}) ${past} (${cursor.key}::${sql.raw(keyset.type)}, ${cursor.id}::integer)`;
}

/**
 * The rows after `after` up to and including `upTo` (from the start without `after`): one stretch of the list,
 * as an export's batch reads it. Beside the row comparisons it bounds the sort column itself, from which
 * the planner sees how short the stretch is; from the row comparisons alone it would expect a good part
 * of the table and join all of it.
 */
export function keysetStretch(keyset: Keyset, after: Cursor | undefined, upTo: Cursor | undefined): SQL | undefined {
  const [past, before] = keyset.direction === 'desc' ? ['<', '>'] : ['>', '<'];
  const bound = (cursor: Cursor, op: string) => {
    const key = sql`${cursor.key}::${sql.raw(keyset.type)}`;
    return sql`(${keyset.sort}, ${keyset.id}) ${sql.raw(op)} (${key}, ${cursor.id}::integer) and ${keyset.sort} ${sql.raw(op[0])}= ${key}`;
  };
  return and(after && bound(after, past), upTo && bound(upTo, `${before}=`));
}

export function keysetOrder(keyset: Keyset): SQL[] {
  const way = sql.raw(keyset.direction);
  return [sql`${keyset.sort} ${way}`, sql`${keyset.id} ${way}`];
}

/** The sort value as the database writes it: the only form a cursor may carry without losing precision. */
export const cursorKey = (keyset: Keyset) => sql<string>`(${keyset.sort})::text`;

/**
 * A page is asked for with one row more than it shows: that row's presence says whether a next page
 * exists, so no count is needed to know it.
 */
export function keysetPage<T extends { cursorKey: string }>(rows: T[], limit: number, idOf: (row: T) => number) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor({ key: last.cursorKey, id: idOf(last) }) : null;
  return { items, nextCursor };
}
