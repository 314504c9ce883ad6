import { sql, type SQL, type AnyColumn } from 'drizzle-orm';
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
