/**
 * A real SMTP server on a free local port that keeps every message it receives, for mail tests. It can refuse
 * chosen addresses for good ("550 no such user" at RCPT), as a mailbox that does not exist.
 */
import type net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The message's header block, folded lines joined. */
  headers: string;
  /** The whole message with quoted-printable soft breaks and escapes undone, so text reads as sent. */
  raw: string;
}

export interface SmtpCapture {
  url: string;
  inbox: ReceivedMail[];
  /** Server errors other than a sender vanishing mid-session; a test expects none. */
  errors: Error[];
  close(): Promise<void>;
}

export interface SmtpCaptureOptions {
  /** Addresses answered with a permanent 550 at RCPT. */
  refuse?: (address: string) => boolean;
}

const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The value of one header of a received mail. */
export function headerOf(mail: ReceivedMail, name: string): string | undefined {
  const line = mail.headers.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

export async function startSmtpCapture({ refuse = () => false }: SmtpCaptureOptions = {}): Promise<SmtpCapture> {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuse(address.address)) return callback();
      const error = new Error('5.1.1 No such user here') as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), headers, raw: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  // A sender that vanishes mid-session (an instance a test kills) resets its connection: a mail server drops
  // that session and carries on, and so does this one. Anything else is kept for the test to look at.
  const errors: Error[] = [];
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') errors.push(error);
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port)),
  );
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    errors,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
