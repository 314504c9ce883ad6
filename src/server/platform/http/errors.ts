import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { databaseUnavailable } from '../storage/db-errors';

/** A failure a client should see: its status, a stable code and a human message. */
export class AppError extends Error {
  constructor(
    public readonly code: string,
    public readonly statusCode: number,
    message: string,
    public readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('BAD_REQUEST', 400, message, fields);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHENTICATED', 401, message);
export const forbidden = (message = 'You do not have permission to do that') => new AppError('FORBIDDEN', 403, message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', 404, message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError('CONFLICT', 409, message, fields);

interface IssueLike {
  message?: string;
  path?: PropertyKey[];
  instancePath?: string;
}

function fieldsFromIssues(issues: IssueLike[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.length
      ? issue.path.map(String).join('.')
      : (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || '_';
    if (!(key in fields)) fields[key] = issue.message ?? 'Invalid value';
  }
  return fields;
}

/** The one error shape: { message, code?, fields? }. 5xx details never reach the client. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return reply.status(error.statusCode).send({ message: error.message, code: error.code, fields: error.fields });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        message: v.message,
        path: (v.params as { issue?: { path?: PropertyKey[] } })?.issue?.path,
        instancePath: v.instancePath,
      }));
      const fields = fieldsFromIssues(issues);
      const first = Object.values(fields)[0] ?? 'Invalid request';
      return reply.status(400).send({ message: first, code: 'VALIDATION_ERROR', fields });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL' });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status === 500 && databaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      reply.header('Retry-After', '5');
      return reply.status(503).send({
        message: 'The site is briefly unavailable. Please try again in a moment.',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(status).send({ message: 'Internal server error', code: 'INTERNAL' });
    }
    if (status === 429) {
      return reply.status(429).send({ message: error.message || 'Too many requests', code: 'RATE_LIMITED' });
    }
    return reply.status(status).send({ message: error.message, code: error.code ?? 'BAD_REQUEST' });
  });
}
