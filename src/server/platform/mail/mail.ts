import { and, eq, inArray, lte, or, isNull, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Clock } from '../security/crypto';
import type { FileStore } from '../storage/files';
import { whileLeaseHeld } from '../operations/lease';

/** An attachment as queued: a file-store key, read only when the mail is sent. */
export interface MailAttachmentRef {
  fileKey: string;
  /** ASCII, shown to the recipient. */
  fileName: string;
  contentType: string;
}

/** An attachment as delivered. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** What the mail is about (password-reset, receipt, ...): for logs and the admin. */
  kind?: string;
  attachments?: MailAttachmentRef[];
}

/** Delivers one message; the SMTP adapter is the production one. */
export interface MailTransport {
  send(message: Omit<MailMessage, 'attachments'> & { from: string; attachments?: MailAttachment[] }): Promise<void>;
  /** Connects and signs in without sending, to tell at start whether the server answers. */
  verify?(): Promise<void>;
  /** Ends the kept connections (a pooled transport); called when the app closes. */
  close?(): void;
}

/**
 * Connections a pooled transport keeps open to the mail server: one per mail a broadcast run keeps in
 * flight, and one for the mail-dispatch job beside it.
 */
export const SMTP_POOL_CONNECTIONS = 5;

/**
 * The SMTP adapter. `pool` keeps connections open and sends message after message on them, instead of a
 * connection, greeting and sign-in per mail: the site's own transport is pooled (a broadcast is thousands
 * of mails); tests that hand an app a transport of their own may leave it unpooled.
 */
export function smtpTransport(smtpUrl: string, { pool = false }: { pool?: boolean } = {}): MailTransport {
  // A mail server that stops answering fails the send within a minute (nodemailer waits 10 minutes idle by
  // default) so the sending instance does not hold the mail lease, renewing it, for that long.
  const timeouts = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };
  const transporter = pool
    ? nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: SMTP_POOL_CONNECTIONS, maxMessages: 1000, ...timeouts })
    : nodemailer.createTransport({ url: smtpUrl, ...timeouts });
  return {
    close() {
      transporter.close();
    },
    async send(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
        attachments: message.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      });
    },
    async verify() {
      await transporter.verify();
    },
  };
}

/**
 * What a kind of mail may add to its delivery (newsletter broadcasts, decision 0077): a last check that the
 * recipient may still be mailed, and what to do when the mail server refuses the address for good.
 */
export interface MailKindPolicy {
  /** Asked just before sending: false leaves the message 'suppressed', never sent. */
  mayDeliver?(to: string): Promise<boolean>;
  /** A permanent refusal (a 5xx answer): the message fails at once instead of being retried. */
  onPermanentFailure?(mail: { id: number; to: string }): Promise<void>;
}

/** Whether an SMTP error is the server's permanent answer (5xx), not a passing trouble worth a retry. */
export function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export const MAIL_MAX_ATTEMPTS = 8;
/** Retry backoff: 30 s, 1 min, 2 min ... capped at 1 hour. */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
/**
 * How long a message (and the mail-dispatch run) stays claimed by the instance sending it. Short, so a
 * crashed sender's mail is taken over within a minute; a send in progress renews it (large attachments).
 */
export const MAIL_LEASE_MS = 30_000;

/**
 * What a delivered message keeps of its body: nothing. Mails carry live secrets (a gift's claim link, a
 * password-reset link, a signed unsubscribe link) that must not stay in the table and in every backup once
 * the recipient has them; the row keeps who, what kind, the subject and when (decision 0060).
 */
export const DELIVERED_BODY = { text: '', html: null, headers: null } as const;

/**
 * Mail goes out from a table: `enqueue` writes the message in the caller's transaction, and the
 * dispatcher (the job runner's `mail-dispatch` job) delivers it later with retries, so an SMTP outage
 * delays mail but loses none.
 * Without a transport (no SMTP_URL) messages are kept in the outbox and logged.
 */
export class Mailer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly from: string,
    private readonly transport: MailTransport | null,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
    /** Where attachments are read from at send time. */
    private readonly files: FileStore | null = null,
    private readonly hooks: { onSent?(kind: string): void; onFailed?(kind: string): void } = {},
  ) {}

  private async loadAttachments(refs: MailAttachmentRef[] | null): Promise<MailAttachment[] | undefined> {
    if (!refs?.length) return undefined;
    if (!this.files) throw new Error('mail has attachments but no file store is configured');
    const out: MailAttachment[] = [];
    for (const ref of refs) {
      const chunks: Buffer[] = [];
      for await (const chunk of await this.files.read(ref.fileKey)) chunks.push(Buffer.from(chunk as Uint8Array));
      out.push({ filename: ref.fileName, contentType: ref.contentType, content: Buffer.concat(chunks) });
    }
    return out;
  }

  private readonly policies = new Map<string, MailKindPolicy>();

  /** Gives one kind of mail its delivery policy (the feature that sends it sets it at start). */
  setPolicy(kind: string, policy: MailKindPolicy): void {
    this.policies.set(kind, policy);
  }

  get deliversMail(): boolean {
    return this.transport !== null;
  }

  async enqueue(message: MailMessage, tx: DbOrTx = this.db): Promise<number> {
    const [id] = await this.enqueueMany([message], tx);
    return id;
  }

  /**
   * Queues several messages in one statement (a broadcast's batch): one round trip instead of one per
   * message. Returns the outbox ids in the order of `messages`.
   */
  async enqueueMany(messages: MailMessage[], tx: DbOrTx = this.db): Promise<number[]> {
    if (messages.length === 0) return [];
    const now = this.clock.now();
    const status = this.transport ? 'pending' : 'kept';
    const rows = await tx
      .insert(mailOutbox)
      .values(
        messages.map((message) => ({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
          attachments: message.attachments?.length ? message.attachments : null,
          kind: message.kind ?? 'generic',
          status,
          nextAttemptAt: now,
        })),
      )
      .returning({ id: mailOutbox.id });
    // Serial ids are drawn in the order the rows are inserted, which is the order of the VALUES list.
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    if (!this.transport) {
      for (const [i, id] of ids.entries()) this.log.info({ mailId: id, kind: messages[i].kind }, 'mail kept in the outbox (no SMTP_URL)');
    } else this.onEnqueued?.();
    return ids;
  }

  /** Claims due messages one at a time (safe across instances) and tries to deliver each once. Returns how many were sent. */
  async dispatchDue(limit = 20): Promise<number> {
    if (!this.transport) return 0;
    let sent = 0;
    for (let n = 0; n < limit; n += 1) {
      const row = await this.claimNext();
      if (!row) break;
      if (await this.deliver(this.transport, row)) sent += 1;
    }
    return sent;
  }

  /** One message at a time: a message waiting behind a slow send is not held by this instance meanwhile. */
  private async claimNext(): Promise<typeof mailOutbox.$inferSelect | null> {
    const now = this.clock.now();
    const due = this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          lte(mailOutbox.nextAttemptAt, now),
          or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, now)),
        ),
      )
      .orderBy(mailOutbox.id)
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(now.getTime() + MAIL_LEASE_MS) })
      .where(inArray(mailOutbox.id, due))
      .returning();
    return row ?? null;
  }

  /**
   * A message this instance may still write: an instance that stalled past its lease must not undo the
   * delivery recorded by the instance that took the message over.
   */
  private stillPending(id: number) {
    return and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending'));
  }

  private async deliver(transport: MailTransport, row: typeof mailOutbox.$inferSelect): Promise<boolean> {
    const renew = () =>
      this.db
        .update(mailOutbox)
        .set({ lockedUntil: new Date(this.clock.now().getTime() + MAIL_LEASE_MS) })
        .where(this.stillPending(row.id));
    const policy = this.policies.get(row.kind);
    if (policy?.mayDeliver && !(await policy.mayDeliver(row.to))) {
      await this.db
        .update(mailOutbox)
        .set({ status: 'suppressed', lockedUntil: null, ...DELIVERED_BODY })
        .where(this.stillPending(row.id));
      return false;
    }
    try {
      await whileLeaseHeld(
        MAIL_LEASE_MS,
        renew,
        async () =>
          transport.send({
            from: this.from,
            to: row.to,
            subject: row.subject,
            text: row.text,
            html: row.html ?? undefined,
            headers: row.headers ?? undefined,
            attachments: await this.loadAttachments(row.attachments),
          }),
        this.log,
      );
      await this.db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: this.clock.now(), lockedUntil: null, attempts: row.attempts + 1, ...DELIVERED_BODY })
        .where(this.stillPending(row.id));
      this.hooks.onSent?.(row.kind);
      return true;
    } catch (error) {
      const attempts = row.attempts + 1;
      const permanent = policy?.onPermanentFailure !== undefined && isPermanentRefusal(error);
      const failed = permanent || attempts >= MAIL_MAX_ATTEMPTS;
      this.log.warn({ mailId: row.id, attempts, err: error }, 'mail delivery failed');
      this.hooks.onFailed?.(row.kind);
      await this.db
        .update(mailOutbox)
        .set({
          attempts,
          status: failed ? 'failed' : 'pending',
          lastError: String((error as Error).message ?? error).slice(0, 500),
          lockedUntil: null,
          nextAttemptAt: new Date(this.clock.now().getTime() + retryDelayMs(attempts)),
        })
        .where(this.stillPending(row.id));
      if (permanent) await policy.onPermanentFailure!({ id: row.id, to: row.to });
      return false;
    }
  }

  /** Called after each enqueue; the app points it at the job runner so mail goes out soon after commit. */
  onEnqueued: (() => void) | null = null;
}

/** Failed messages go back to the queue with a fresh set of attempts (the admin's "Retry"). */
export async function retryFailedMail(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null })
    .where(eq(mailOutbox.status, 'failed'))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

type OutboxStatus = 'pending' | 'failed' | 'kept' | 'sent';

/**
 * Outbox counts per status, for the admin's System page (all four) and the metrics (the ones still to do:
 * pending, failed, kept). Each status is counted from mail_outbox_due_idx alone, so the metrics' scrape
 * does not read past every mail ever sent; the System page's "Sent" does.
 */
export async function mailOutboxCounts<S extends OutboxStatus = OutboxStatus>(
  db: Db,
  statuses: readonly S[] = ['pending', 'failed', 'kept', 'sent'] as S[],
): Promise<Record<S, number>> {
  const rows = await db
    .select({ status: mailOutbox.status, n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, [...statuses]))
    .groupBy(mailOutbox.status);
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const r of rows) counts[r.status as S] = Number(r.n);
  return counts;
}
