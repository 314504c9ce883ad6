import os from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import pino from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
];

/**
 * Routes whose path carries a bearer secret: whoever holds the link holds what it grants (a signed
 * download, a gift claim). Their `:token` segment is masked in every log line. Query strings are dropped
 * anyway (reset and unsubscribe links carry their secret there). A new route with a secret in its path
 * belongs in this list: the app refuses to register a route with a `:token` that is not in it.
 */
export const SECRET_PATH_ROUTES = [
  '/files/download/:token',
  '/api/gifts/:token',
  '/api/gifts/:token/claim',
  '/gift/:token',
  '/files/podcast/:token',
  '/files/podcast/:token/:episode',
  '/files/episode/:token/:episode',
  '/files/opds/t/:token',
  '/files/opds/t/:token/books/:purchaseId',
];
const SECRET_PARAMS = new Set([':token']);
const secretPatterns = SECRET_PATH_ROUTES.map((route) => route.split('/'));

/** Throws for a route that has a `:token` in its path but would show it in the logs. */
export function assertTokenRouteRedacted(route: string): void {
  if (route.split('/').some((part) => SECRET_PARAMS.has(part)) && !SECRET_PATH_ROUTES.includes(route)) {
    throw new Error(`Route ${route} carries a token in its path: add it to SECRET_PATH_ROUTES so logs mask it`);
  }
}

/** A path segment as the router compares it (percent-escapes decoded), for matching a pattern. */
function routedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The URL as logged: no query string, and the secret segment of a secret-bearing route masked. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const segments = path.split('/');
  // The router ignores one trailing slash.
  const compared = segments.length > 2 && segments.at(-1) === '' ? segments.slice(0, -1) : segments;
  for (const pattern of secretPatterns) {
    if (pattern.length !== compared.length) continue;
    if (!pattern.every((part, i) => part.startsWith(':') || part === routedSegment(compared[i]))) continue;
    return segments.map((segment, i) => (SECRET_PARAMS.has(pattern[i] ?? '') ? '[redacted]' : segment)).join('/');
  }
  return path;
}

/** True when a logger at this level writes `info` lines (so a line is not even built when it would be dropped). */
const infoEnabled = (level: string) => (pino.levels.values[level] ?? Infinity) <= pino.levels.values.info;

/**
 * The request id: the X-Request-Id a trusted proxy sent (when it looks like one), else a new UUID. A
 * client's own header is not taken: it could make its requests look like someone else's in the log.
 */
export function requestIdFrom(incoming: string | string[] | undefined, fromTrustedProxy: boolean): string {
  return fromTrustedProxy && typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
}

/** What one access-log line says about a request. */
export interface AccessEntry {
  reqId: string;
  method: string | undefined;
  url: string;
  route: string | null;
  statusCode: number;
  responseTime: number;
  remoteAddress?: string;
}

/** Anything lines can be written to: pino's destination or a test's stream. */
interface LineSink {
  write(chunk: string): unknown;
  flushSync?: () => void;
}

const openWriters = new Set<AccessLogWriter>();
let exitHookInstalled = false;

/**
 * The access log: one line per request, in the same JSON shape as the app's logger (level, time, pid,
 * hostname, the fields, msg), built by hand from plain fields. Nothing in it can hold a redacted value, so it
 * needs neither pino's serializers nor its redaction. Lines wait in memory until the end of the current turn
 * of the event loop and go to the destination together: a busy server hands over one string per turn
 * instead of one per request (each hand-over made the destination measure its whole pending buffer, which
 * cost more than the rest of a cached page's answer). Pending lines are written when the app closes and
 * when the process exits.
 */
export class AccessLogWriter {
  private pending: string[] = [];
  private scheduled = false;
  private readonly head = `{"level":30,"time":`;
  private readonly origin = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())}`;

  constructor(private readonly sink: LineSink) {
    openWriters.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const writer of openWriters) writer.flush(true);
      });
    }
  }

  write(entry: AccessEntry): void {
    const address = entry.remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(entry.remoteAddress)}`;
    this.pending.push(
      `${this.head}${Date.now()}${this.origin},"reqId":${JSON.stringify(entry.reqId)},"method":${JSON.stringify(entry.method ?? '')}` +
        `,"url":${JSON.stringify(entry.url)},"route":${entry.route === null ? 'null' : JSON.stringify(entry.route)}` +
        `,"statusCode":${entry.statusCode},"responseTime":${Number.isFinite(entry.responseTime) ? entry.responseTime : 0}${address}` +
        `,"msg":"request completed"}\n`,
    );
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Hands the pending lines to the destination; `sync` also waits for them to be written (at exit). */
  flush(sync = false): void {
    this.scheduled = false;
    if (this.pending.length > 0) {
      const chunk = this.pending.join('');
      this.pending = [];
      try {
        this.sink.write(chunk);
      } catch {
        // A destination that is already closed: the lines are dropped, the request is not failed.
      }
    }
    if (sync) {
      try {
        this.sink.flushSync?.();
      } catch {
        // Nothing more can be done at exit.
      }
    }
  }

  close(): void {
    this.flush();
    openWriters.delete(this);
  }
}

/** Rounds a duration in milliseconds to hundredths, as the access log gives it. */
export const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/**
 * One log line per request, written when it completes, with what an operator needs: request id, method,
 * path, route, status and time. Errors keep the framework's fuller (redacted) line.
 */
export class AccessLog extends LogController {
  constructor(private readonly access: AccessLogWriter | null) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    this.access?.write({
      reqId: request.id,
      method: request.method,
      url: loggableUrl(request.url),
      route: request.routeOptions.url ?? null,
      statusCode: reply.statusCode,
      responseTime: roundMs(reply.elapsedTime),
      remoteAddress: request.ip,
    });
  }
}

/** Fields of database errors that quote the values of a query (pg and PGlite put them in `detail`). */
const VALUE_FIELDS = ['parameters', 'detail'];

/**
 * An error as it may be logged: a failed query's parameters (password hashes, e-mail addresses, message
 * text) are taken out of the error and out of its message and stack, along its whole cause chain; the SQL
 * itself stays, it is what an operator needs. Decision 0018.
 */
export function withoutQueryValues(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(error)) copy[key] = (error as unknown as Record<string, unknown>)[key];
  let message = error.message;
  // drizzle's message is `Failed query: <sql>\nparams: <values>`: the values are always last.
  if ('params' in error) message = message.replace(/\nparams: [\s\S]*$/, () => '\nparams: [redacted]');
  // PostgreSQL's data exceptions (SQLSTATE class 22) quote the offending value: `invalid input syntax
  // for type integer: "<value>"`. Integrity errors quote only constraint names, and keep them.
  if (/^22/.test(String((error as { code?: unknown }).code ?? ''))) message = message.replace(/"(?:[^"]|"")*"/g, () => '"[redacted]"');
  if (message !== error.message) {
    copy.message = message;
    copy.stack = String(error.stack ?? '').split(error.message).join(message);
  }
  delete copy.params;
  for (const key of VALUE_FIELDS) if (key in copy) copy[key] = '[redacted]';
  if (copy.cause) copy.cause = withoutQueryValues(copy.cause, depth + 1);
  return copy;
}

/** Logger settings: a level and, optionally, where lines go (tests pass a stream; by default stdout). */
export interface LoggerSettings {
  level: string;
  stream?: NodeJS.WritableStream;
}

/** The app's logger settings: secrets redacted wherever they could appear in a line. */
export function defaultLogger(level: string, stream?: NodeJS.WritableStream): LoggerSettings {
  return { level, stream };
}

/**
 * The two loggers: the app's (redacted) and the access log (plain fields only, null below `info`), both
 * writing to one destination. By default that is stdout written asynchronously: lines written while a write
 * is in flight go out together, and what is left is flushed when the process exits.
 */
export function createLoggers(settings: LoggerSettings | false): { app: pino.Logger | null; access: AccessLogWriter | null } {
  if (!settings) return { app: null, access: null };
  const destination = settings.stream ?? pino.destination({ dest: 1, sync: false });
  const app = pino(
    {
      level: settings.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: loggableUrl(req.url),
          remoteAddress: req.ip,
        }),
        err: (error: Error) => pino.stdSerializers.err(withoutQueryValues(error) as Error),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination,
  );
  const access = infoEnabled(settings.level) ? new AccessLogWriter(destination as LineSink) : null;
  return { app, access };
}
