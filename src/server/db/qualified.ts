import { type Column, type SQL, getTableName, sql } from 'drizzle-orm';

/**
 * A column written with its table's name, for correlated subqueries. In a select over one table drizzle
 * writes columns without their table, so `${inner.userId} = ${outer.id}` inside a subquery would compare
 * two columns of the inner table (`"user_id" = "id"`) and match nothing.
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
