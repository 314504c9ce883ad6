/** Test-only: a capture SMTP server that refuses chosen addresses for good, and a confirmed list to mail. */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { DbOrTx } from '../../db/client';

export interface CapturedMail {
  to: string;
  /** The message's header block, folded lines joined. */
  headers: string;
  /** The whole message with its quoted-printable parts decoded. */
  raw: string;
}

const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The value of one header of a captured mail. */
export function headerOf(mail: CapturedMail, name: string): string | undefined {
  const line = mail.headers.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** Listens on a free port; addresses `refuse` names get "550 no such user" at RCPT, as a mailbox that does not exist. */
export async function captureServer(refuse: (address: string) => boolean = () => false) {
  const inbox: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (refuse(address.address)) {
        const error = new Error('5.1.1 No such user here') as Error & { responseCode: number };
        error.responseCode = 550;
        cb(error);
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
        for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, headers, raw: decodeQuotedPrintable(raw) });
        cb();
      });
    },
  });
  // A sender that vanishes mid-session (an instance a test kills) resets its connection: a mail server drops
  // that session and carries on, and so does this one. Anything else is kept for the test to look at.
  const errors: Error[] = [];
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') errors.push(error);
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port));
  });
  return { inbox, errors, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** `count` confirmed subscribers named `${prefix}${n}@example.com`, inserted in one statement. */
export async function confirmedSubscribers(db: DbOrTx, prefix: string, count: number): Promise<void> {
  await db.execute(sql`
    insert into newsletter_subscribers (email, state, source, confirmed_at)
    select ${prefix} || n || '@example.com', 'confirmed', 'import', now() from generate_series(1, ${count}) n`);
}
