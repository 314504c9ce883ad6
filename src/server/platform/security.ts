import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers, worked out once: helmet's middleware is run a single time against a recorder and
 * the headers it sets are kept. (Building them per request cost about a tenth of a cached read.)
 */
export function securityHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/** Security headers for every answer. Scripts only from this origin; no inline script anywhere. */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { stripe: boolean }): Promise<void> {
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // blob: for the reading room only: the EPUB renderer hands each book page, and the stylesheets,
        // images and fonts inside the book, to a sandboxed frame as blob: URLs made by our own script.
        // Scripts never get blob: (see docs/decisions/0030-reading-room-sandbox.md).
        styleSrc: ["'self'", "'unsafe-inline'", 'blob:'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://i.ytimg.com'],
        fontSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'"],
        frameSrc: ['blob:', 'https://www.youtube-nocookie.com'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", ...(opts.stripe ? ['https://checkout.stripe.com'] : [])],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
