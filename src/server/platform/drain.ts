import type { FastifyInstance } from 'fastify';

/**
 * Shutdown in two steps (decision 0021). First the drain: /readyz answers 503 so a load balancer stops
 * sending, while the listener keeps accepting and answering; every answer carries `Connection: close`, so
 * a pooled keep-alive socket is closed by the server only right after a response on it, never under a
 * request the client is already sending. Then the close: no new connections, in-flight requests finish.
 */
export async function drainThenClose(app: FastifyInstance, drainMs: number): Promise<void> {
  app.frontDoor.closing = true;
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  await app.close();
}
