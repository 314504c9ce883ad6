import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyFor, chooseEncoding, etagFor, matchesIfNoneMatch, type RememberedAnswer } from './cached-answer';
import { type AccessLogWriter, loggableUrl, requestIdFrom, roundMs } from '../operations/logging';
import { HSTS } from '../security/security';
import type { StaticAssets } from './static-assets';

export interface FrontDoor {
  assets: StaticAssets | null;
  /**
   * Public reads the app answered from the public cache, by exact path: for up to REMEMBER_MS the front
   * door answers them itself with the same bytes and headers. Emptied whenever the public cache is cleared.
   */
  remembered: Map<string, RememberedAnswer>;
  /** Set when the server is shutting down: answers close their connection. */
  closing: boolean;
  /** The access log (see logging.ts). */
  log: AccessLogWriter | null;
  /** Whether a request came over https (HSTS goes only on those answers). */
  isHttps: (req: IncomingMessage) => boolean;
  /** Whether a request came from a trusted proxy (whose X-Request-Id is kept). */
  fromTrustedProxy: (req: IncomingMessage) => boolean;
}

/**
 * Answers a request for a built static file straight from memory, with the same headers and the same
 * access-log line as the framework would give; false when the request is not for one.
 */
export function serveStatic(front: FrontDoor, req: IncomingMessage, res: ServerResponse): boolean {
  const start = performance.now();
  const id = requestIdFrom(req.headers['x-request-id'], front.fromTrustedProxy(req));
  const extra = front.closing ? ['x-request-id', id, 'connection', 'close'] : ['x-request-id', id];
  if (front.isHttps(req)) extra.push(...HSTS);
  if (!front.assets!.serve(req, res, extra)) return false;
  front.log?.write({ reqId: id, method: req.method, url: req.url!.split('?')[0], route: 'static', statusCode: res.statusCode, responseTime: roundMs(performance.now() - start) });
  return true;
}

/** Repeats a remembered public read, exactly as sendCachedAnswer would; false when there is none. */
export function serveRemembered(front: FrontDoor, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const entry = front.remembered.get(req.url ?? '');
  if (!entry) return false;
  const start = performance.now();
  if (entry.until <= start) {
    front.remembered.delete(req.url!);
    return false;
  }
  const { answer } = entry;
  const id = requestIdFrom(req.headers['x-request-id'], front.fromTrustedProxy(req));
  const headers: string[] = [];
  for (const [k, v] of front.assets!.common()) headers.push(k, v);
  const use = chooseEncoding(req.headers['accept-encoding'], answer);
  headers.push('etag', etagFor(answer.etag, use), 'cache-control', entry.cacheControl);
  if (answer.br || answer.gzip) headers.push('vary', 'Accept-Encoding');
  if (answer.lastModified) headers.push('last-modified', answer.lastModified);
  headers.push('x-request-id', id);
  if (front.isHttps(req)) headers.push(...HSTS);
  if (front.closing) headers.push('connection', 'close');
  if (matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) {
    res.writeHead(304, headers);
    res.end();
  } else {
    const body = bodyFor(answer, use);
    headers.push('content-type', answer.type, 'content-length', String(body.length));
    if (use) headers.push('content-encoding', use);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
  front.log?.write({ reqId: id, method: req.method, url: loggableUrl(req.url!), route: entry.route, statusCode: res.statusCode, responseTime: roundMs(performance.now() - start) });
  return true;
}
