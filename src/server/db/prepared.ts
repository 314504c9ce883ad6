import type { DbOrTx } from './client';

/**
 * A statement built and prepared once for each database handle, then executed with new values: the query
 * builder does not run again, and PostgreSQL parses and plans it once per connection. Kept for the few
 * statements on a path where every request waits for them: the signed download route's read and claim
 * (decision 0112 has what each saved).
 */
export function preparedPerDatabase<Statement>(build: (db: DbOrTx) => Statement): (db: DbOrTx) => Statement {
  const statements = new WeakMap<DbOrTx, Statement>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) statements.set(db, (statement = build(db)));
    return statement;
  };
}
