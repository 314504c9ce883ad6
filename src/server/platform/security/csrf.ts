import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { csrfTokenSchema } from '@shared/schemas/auth';
import { type Random, hmac, safeEqual } from './crypto';

declare module 'fastify' {
  interface FastifyInstance {
    /** True when the request carries the visitor's valid X-CSRF-Token (also usable on GET routes that spend something). */
    hasValidCsrfToken(request: FastifyRequest): boolean;
  }
  interface FastifyContextConfig {
    /** Set false on routes authenticated another way (signed webhooks). */
    csrf?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  secret: string;
  random: Random;
  secureCookies: boolean;
}

/**
 * CSRF tokens bound to the visitor: a random visitor id lives in an HttpOnly cookie and the token is its
 * HMAC. A cross-site page can make the browser send the cookie but can never read the token, so it cannot
 * fill X-CSRF-Token.
 */
export const csrfPlugin = fp<CsrfOptions>(async (app: FastifyInstance, opts) => {
  const cookieName = opts.secureCookies ? '__Host-csrf' : 'csrf';
  const tokenFor = (visitorId: string) => hmac(opts.secret, `csrf:${visitorId}`);
  const hasValidCsrfToken = (request: FastifyRequest) => {
    const visitorId = request.cookies[cookieName];
    const header = request.headers['x-csrf-token'];
    const token = Array.isArray(header) ? header[0] : header;
    return Boolean(visitorId && token && safeEqual(token, tokenFor(visitorId)));
  };
  app.decorate('hasValidCsrfToken', hasValidCsrfToken);

  app.get(
    '/api/csrf-token',
    { schema: { tags: ['auth'], response: { 200: csrfTokenSchema } } },
    async (request, reply) => {
      let visitorId = request.cookies[cookieName];
      if (!visitorId || visitorId.length > 100) {
        visitorId = opts.random.token(24);
        reply.setCookie(cookieName, visitorId, {
          httpOnly: true,
          sameSite: 'lax',
          secure: opts.secureCookies,
          path: '/',
          maxAge: 60 * 60 * 24 * 365,
        });
      }
      reply.header('Cache-Control', 'no-store');
      return { csrfToken: tokenFor(visitorId) };
    },
  );

  // onRequest, so a forged request is refused before its body is even validated.
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!request.routeOptions.url) return; // unknown route: let it answer 404
    if (request.routeOptions.config?.csrf === false) return;
    if (!hasValidCsrfToken(request)) {
      return reply
        .status(403)
        .send({ message: 'Invalid or missing CSRF token. Refresh the page and try again.', code: 'CSRF_ERROR' });
    }
  });
});
