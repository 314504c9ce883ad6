import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** Security headers for every answer. Scripts only from this origin; no inline script anywhere. */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { stripe: boolean }): Promise<void> {
  await app.register(helmet, {
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
}
