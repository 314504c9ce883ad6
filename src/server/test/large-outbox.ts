/**
 * A mail outbox of `rows` distinct mails of about 2 x `width` characters each, made inside the database so
 * that nothing passes through the test's heap: the large-site tests (backups, shutdown during a backup) need
 * data bigger than a process could hold, or that takes seconds to read.
 */
import type { Database } from '../db/client';

export async function fillOutbox(database: Pick<Database, 'exec'>, rows: number, width = 4000): Promise<void> {
  // Every mail differs (its number is in it), so neither the database nor gzip can fold them into one.
  await database.exec(`
    insert into mail_outbox (to_address, subject, text_body, html_body, status)
    select 'reader' || g || '@example.com', 'Your order ' || g,
           left(repeat('The tide came in over the harbour wall, mail ' || g || '. ', ${Math.ceil(width / 40)}), ${width}),
           left(repeat('<p>Nobody on Quay Lane said a word, mail ' || g || '.</p>', ${Math.ceil(width / 40)}), ${width}),
           'sent'
      from generate_series(1, ${rows}) g`);
}
