import type { IncomingMessage, ServerResponse } from 'node:http';
import type pino from 'pino';
import { infoEnabled, requestIdFrom } from './logging';
import type { StaticAssets } from './static-assets';

export interface FrontDoor {
  assets: StaticAssets | null;
  /** Set when the server is shutting down: answers close their connection. */
  closing: boolean;
  /** The access log (see logging.ts). */
  log: pino.Logger | null;
}

/** Headers that belong to one answer, not to every answer of the app. */
const PER_ANSWER = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'etag',
  'last-modified',
  'cache-control',
  'vary',
  'date',
  'connection',
  'keep-alive',
  'x-request-id',
  'accept-ranges',
  'set-cookie',
]);

/** The headers of an app answer that every answer carries (security headers). */
export function commonHeadersOf(headers: Record<string, unknown>): Array<[string, string]> {
  return Object.entries(headers)
    .filter(([name, value]) => !PER_ANSWER.has(name.toLowerCase()) && value !== undefined)
    .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]);
}

/**
 * Answers a request for a built static file straight from memory, with the same headers and the same
 * access-log line as the framework would give; false when the request is not for one.
 */
export function serveStatic(front: FrontDoor, req: IncomingMessage, res: ServerResponse): boolean {
  const start = performance.now();
  const id = requestIdFrom(req.headers['x-request-id']);
  const extra = front.closing ? ['x-request-id', id, 'connection', 'close'] : ['x-request-id', id];
  if (!front.assets!.serve(req, res, extra)) return false;
  const log = front.log;
  if (log && infoEnabled(log)) {
    log.info(
      {
        reqId: id,
        method: req.method,
        url: req.url!.split('?')[0],
        route: 'static',
        statusCode: res.statusCode,
        responseTime: Math.round((performance.now() - start) * 100) / 100,
      },
      'request completed',
    );
  }
  return true;
}
