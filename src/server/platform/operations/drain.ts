import type { FastifyInstance } from 'fastify';

/**
 * Shutdown in two steps (decision 0021). First the drain: /readyz answers 503 so a load balancer stops
 * sending, while the listener keeps accepting and answering; every answer carries `Connection: close`, so
 * a pooled keep-alive socket is closed by the server right after a response on it. Keep-alive sockets
 * that sit idle from before the drain are closed at its start, while the listener still takes the
 * clients' next connection: left open, they were cut at the end of the drain, when a pooled client (a
 * balancer's pool) may be sending on them. Then the close: no new connections, in-flight requests finish.
 */
export async function drainThenClose(app: FastifyInstance, drainMs: number): Promise<void> {
  app.frontDoor.closing = true;
  // Only after one whole round of reads (the next timers phase, then the check phase after its poll): a
  // request a client has already sent on an idle socket is then being parsed, so that socket is no longer
  // idle and is answered (with Connection: close) instead of being cut unread.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
  app.server.closeIdleConnections();
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  await app.close();
}
