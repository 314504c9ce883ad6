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
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https://i.ytimg.com'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'"],
        frameSrc: ['https://www.youtube-nocookie.com'],
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
