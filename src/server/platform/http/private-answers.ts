import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Paths whose answers may depend on who asks (the API, payment pages, signed download links). */
const PERSONAL_PREFIXES = ['/api/', '/pay/', '/files/'];

function carriesCredentials(request: FastifyRequest, setsCookie: boolean, sessionCookie: string): boolean {
  if (request.auth || setsCookie) return true;
  if (request.headers.authorization) return true;
  if (request.cookies?.[sessionCookie]) return true;
  // A signed download link is itself the credential.
  return request.url.startsWith('/files/download/');
}

/**
 * `Cache-Control: private, no-store` is the default for every answer given to a signed-in or
 * token-bearing request, or that sets a cookie (a sign-in answer carries the session and the bearer
 * token): no shared cache or browser history keeps a reader's data. Left as they are: answers the route
 * marked the same for everyone (public reads served from the public cache with their ETags, or an explicit
 * `public` policy), and answers whose route already chose a private policy. See decision 0013.
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.publicRead) return payload;
    if (!PERSONAL_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return payload;
    const current = String(reply.getHeader('cache-control') ?? '').toLowerCase();
    if (/\b(public|private)\b/.test(current)) return payload;
    if (carriesCredentials(request, reply.hasHeader('set-cookie'), app.sessions.cookieName)) {
      reply.header('Cache-Control', 'private, no-store');
    }
    return payload;
  });
}
