import type { ContactInput } from '@shared/schemas/contact';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';
import type { Mailer } from '../../platform/mail';

/**
 * Stores the message and queues the author's copy in one transaction: once the visitor is told it was
 * sent, it is in the database and its mail will go out (with retries) even if SMTP is down right now.
 */
export async function submitContactMessage(db: Db, mailer: Mailer, authorEmail: string, input: ContactInput) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(contactMessages).values(input).returning({ id: contactMessages.id });
    await mailer.enqueue(
      {
        to: authorEmail,
        subject: `[Website contact] ${input.subject}: ${input.name}`.slice(0, 200),
        text: [
          `A new message arrived through the website contact form (#${row.id}).`,
          '',
          `Name: ${input.name}`,
          `Email: ${input.email}`,
          `Subject: ${input.subject}`,
          '',
          input.message,
        ].join('\n'),
        // Replying from the mail client answers the visitor, not the site.
        headers: { 'Reply-To': input.email },
        kind: 'contact',
      },
      tx,
    );
    return row.id;
  });
}
