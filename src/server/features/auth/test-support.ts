/** Helpers for the account tests: reading queued mail and the reset link inside it. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export async function outboxFor(db: Db, to: string, kind?: string) {
  return db
    .select()
    .from(mailOutbox)
    .where(and(sql`lower(${mailOutbox.to}) = lower(${to})`, kind ? eq(mailOutbox.kind, kind) : undefined))
    .orderBy(desc(mailOutbox.id));
}

/** Forgot-password queues its mail just after answering; wait until `count` such mails exist. */
export async function waitForOutbox(db: Db, to: string, kind: string, count = 1, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await outboxFor(db, to, kind);
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`expected ${count} ${kind} mail(s) to ${to}, found ${rows.length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The reset link's token and email, read from a mail body. */
export function parseResetLink(text: string): { url: URL; token: string; email: string } {
  const match = text.match(/https?:\/\/\S+\/reset-password\?\S+/);
  if (!match) throw new Error('no reset link in mail');
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token') ?? '', email: url.searchParams.get('email') ?? '' };
}
