import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../../platform/http/errors';

/**
 * A download spends something, so the request that asks for it must be one a cross-site page or a
 * link prefetch cannot make: either the bearer header (which only our script can add) or a valid
 * X-CSRF-Token (which only our origin can read).
 */
export function requireDeliberateRequest(app: FastifyInstance, request: FastifyRequest): void {
  if (request.auth?.via === 'bearer') return;
  if (app.hasValidCsrfToken(request)) return;
  throw forbidden('This download must be requested from the site (missing authorization or CSRF token).');
}

/** The client may send userId (docs/PRODUCT.md, API); it must be the caller, and is otherwise ignored. */
export function checkUserIdParam(request: FastifyRequest, userId: number | undefined): void {
  if (userId !== undefined && userId !== request.auth?.userId) {
    throw forbidden('You can only access your own library');
  }
}
