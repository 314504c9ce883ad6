/** Test-only: a confirmed list to mail. */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** `count` confirmed subscribers named `${prefix}${n}@example.com`, inserted in one statement. */
export async function confirmedSubscribers(db: DbOrTx, prefix: string, count: number): Promise<void> {
  await db.execute(sql`
    insert into newsletter_subscribers (email, state, source, confirmed_at)
    select ${prefix} || n || '@example.com', 'confirmed', 'import', now() from generate_series(1, ${count}) n`);
}
