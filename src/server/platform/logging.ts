import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
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
 * The URL as logged: query strings are dropped (reset links, unsubscribe links and other signed URLs carry
 * their secret there) and the token of a signed download path is masked.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.startsWith('/files/download/') ? path.replace(/^\/files\/download\/[^/]+/, '/files/download/[redacted]') : path;
}

/** True when the logger writes `info` lines (so a line is not even built when it would be dropped). */
export const infoEnabled = (log: FastifyBaseLogger | pino.Logger) => (pino.levels.values[log.level] ?? Infinity) <= pino.levels.values.info;

/** The request id: the caller's X-Request-Id when it looks like one (a proxy's), else a new UUID. */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
}

/**
 * One log line per request, written when it completes, with what an operator needs: request id, method,
 * path, route, status and time. It goes through its own logger, without redaction: the line is built from
 * these plain fields only, so none of the redacted paths can be in it, and redaction stays off the hot path.
 * Errors keep the framework's fuller (redacted) line.
 */
export class AccessLog extends LogController {
  constructor(private readonly access: pino.Logger | null) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const access = this.access;
    if (access === null || !infoEnabled(access)) return;
    access.info(
      {
        reqId: request.id,
        method: request.method,
        url: loggableUrl(request.url),
        route: request.routeOptions.url ?? null,
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
        remoteAddress: request.ip,
      },
      'request completed',
    );
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
 * The two loggers: the app's (redacted) and the access log's (plain fields only), both writing to one
 * destination. By default that is stdout written asynchronously: lines written while a write is in flight go
 * out together, and pino flushes what is left when the process exits.
 */
export function createLoggers(settings: LoggerSettings | false): { app: pino.Logger | null; access: pino.Logger | null } {
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
  const access = pino({ level: settings.level }, destination);
  return { app, access };
}
