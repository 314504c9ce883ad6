import type { ContactInput } from '@shared/schemas/contact';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import type { Mailer } from '../../platform/mail/mail';
import { contactMail } from './templates';

// What other features may use of this one (their only way in).
export { markMessageRead, toAdminMessage } from './inbox';

/**
 * Stores the message and queues the author's copy in one transaction: once the visitor is told it was
 * sent, it is in the database and its mail will go out (with retries) even if SMTP is down right now.
 */
export async function submitContactMessage(db: Db, mailer: Mailer, authorEmail: string, input: ContactInput) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(contactMessages).values(input).returning({ id: contactMessages.id });
    await mailer.enqueue(contactMail(authorEmail, row.id, input), tx);
    return row.id;
  });
}
