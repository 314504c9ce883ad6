import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePasswordSchema, userIdParam, userProfileSchema } from '@shared/schemas/auth';
import { errorSchema, MAX_DB_ID, successMessageSchema } from '@shared/schemas/common';
import { AppError, forbidden, notFound } from '../../platform/http/errors';
import { changePassword, getProfile, setFirstPassword, WRONG_CURRENT_PASSWORD } from './account-service';
import { changeUsernameSchema, setPasswordSchema } from '@shared/schemas/login-link';
import { changeUsername } from './service';
import { keys, LIMITS, limitMessages, record, tooManyRequests, type Limit } from './limits';
import { requireUser } from '../../platform/security/sessions';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema };

/** The numeric id in the path, or null for anything else (/api/users/abc is simply not a user). */
function pathUserId(request: FastifyRequest): number | null {
  const raw = (request.params as { userId?: string }).userId ?? '';
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= MAX_DB_ID ? Number(raw) : null;
}

/** Account reads and the password change; each answers only for the caller's own account. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { counter, clock } = app.deps;

  app.get(
    '/api/users/:userId',
    {
      // Decided before anything else is looked at, so a stranger learns nothing (not even whether the id exists).
      preValidation: async (request) => {
        const auth = requireUser(request);
        const id = pathUserId(request);
        if (id === null) throw notFound('User not found');
        if (auth.role !== 'admin' && id !== auth.userId) throw forbidden('You can only view your own account');
      },
      schema: {
        tags: ['users'],
        summary: 'A user profile: the caller’s own, or any for an admin',
        params: userIdParam,
        response: { 200: userProfileSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const profile = await getProfile(app.deps, pathUserId(request)!);
      if (!profile) throw notFound('User not found');
      return profile;
    },
  );

  app.post(
    '/api/users/:userId/change-password',
    {
      preValidation: async (request) => {
        // Even an admin changes only their own password here.
        if (pathUserId(request) !== requireUser(request).userId) throw forbidden('You can only change your own password');
      },
      schema: {
        tags: ['users'],
        summary: 'Change the caller’s password; ends every other session',
        params: userIdParam,
        body: changePasswordSchema,
        response: { 200: successMessageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const check: [string, Limit] = [keys.currentPassword(auth.userId), LIMITS.currentPasswordFailuresPerUser];
      const now = () => clock.now().getTime();
      // Counted before the check, so parallel guesses cannot all pass it; a right password gives it back.
      const wait = await record(counter, [check], now());
      if (wait !== null) throw tooManyRequests(reply, limitMessages.currentPassword(wait), wait);
      const outcome = await changePassword(app.deps, app.sessions, auth.userId, auth.sessionId, request.body);
      if (outcome === 'wrong-current') {
        throw new AppError('WRONG_PASSWORD', 400, WRONG_CURRENT_PASSWORD, { currentPassword: WRONG_CURRENT_PASSWORD });
      }
      await counter.reset(check[0]);
      return { success: true, message: 'Your password has been updated successfully' };
    },
  );

  app.post(
    '/api/users/:userId/set-password',
    {
      config: { rateLimit: { max: 10, timeWindow: '15 minutes' } },
      preValidation: async (request) => {
        if (pathUserId(request) !== requireUser(request).userId) throw forbidden('You can only change your own password');
      },
      schema: {
        tags: ['users'],
        summary: 'A first password for an account made by an emailed sign-in link (it has none)',
        params: userIdParam,
        body: setPasswordSchema,
        response: { 200: successMessageSchema, ...errors },
      },
    },
    async (request) => {
      await setFirstPassword(app.deps, requireUser(request).userId, request.body.newPassword);
      return { success: true, message: 'Your password has been set. You can now also sign in with it.' };
    },
  );

  app.post(
    '/api/users/:userId/username',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      preValidation: async (request) => {
        if (pathUserId(request) !== requireUser(request).userId) throw forbidden('You can only change your own username');
      },
      schema: {
        tags: ['users'],
        summary: 'Change the caller’s username (a link-made account starts with one from its address)',
        params: userIdParam,
        body: changeUsernameSchema,
        response: { 200: successMessageSchema, ...errors },
      },
    },
    async (request) => {
      const username = await changeUsername(app.deps.database.db, requireUser(request).userId, request.body.username);
      return { success: true, message: `Your username is now ${username}.` };
    },
  );
};
