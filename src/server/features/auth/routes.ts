import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminStatusSchema,
  authStatusSchema,
  forgotPasswordResponseSchema,
  forgotPasswordSchema,
  generatedPasswordSchema,
  loginResponseSchema,
  loginSchema,
  registerResponseSchema,
  registerSchema,
  resetPasswordSchema,
} from '@shared/schemas/auth';
import { errorSchema, successMessageSchema } from '@shared/schemas/common';
import { AppError } from '../../platform/http/errors';
import {
  accountDelayMs,
  type FailureGuard,
  keys,
  type Limit,
  LIMITS,
  limitMessages,
  reached,
  record,
  reserve,
  tooManyRequests,
} from './limits';
import { generatePassword } from './password-generator';
import { findResetTarget, issueResetToken, resetPassword } from './reset-service';
import { findLoginAccount, INVALID_CREDENTIALS, registerUser, verifyLogin } from './service';

export const FORGOT_PASSWORD_ANSWER = {
  success: true,
  message: 'If an account exists for that email address, a password reset link is on its way. It is valid for 1 hour.',
};

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema, 429: errorSchema };

/**
 * Sign-up, sign-in, sign-out, status checks and password reset. Registered with fastify-plugin (not
 * encapsulated) because the reset page's Referrer-Policy hook must reach the app-wide page handler.
 */
const plugin: FastifyPluginAsyncZod = async (app) => {
  const { database, counter, clock } = app.deps;
  const { db } = database;
  const now = () => clock.now().getTime();

  // The reset and sign-in links carry their token in the query string; never leak it to another site as a Referer.
  app.addHook('onSend', async (request, reply) => {
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    // A free book's confirmation page (decision 0097) carries its token the same way.
    if (path === '/reset-password' || path === '/login-link' || /^\/free\/[^/]+\/confirm$/i.test(path)) reply.header('Referrer-Policy', 'no-referrer');
  });

  // Forgot-password work for known addresses runs after the answer; close() waits for it.
  const background = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...background]);
  });

  app.post(
    '/api/users/register',
    {
      config: { rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and start a session',
        body: registerSchema,
        response: { 201: registerResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await registerUser(db, request.body);
      const issued = await app.sessions.create(user.id, { userAgent: request.headers['user-agent'], ip: request.ip });
      app.sessions.setCookie(reply, issued);
      return reply.status(201).send({ id: user.id, token: issued.bearerToken, message: 'Registration successful' });
    },
  );

  app.post(
    '/api/users/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or email (any case) and a password',
        body: loginSchema,
        response: { 200: loginResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await authenticateWithLimits(request.ip, request.body, reply);
      if (!result) throw new AppError('INVALID_CREDENTIALS', 401, INVALID_CREDENTIALS);
      // A fresh session on every sign-in; whatever session this browser held before ends.
      if (request.auth) await app.sessions.revokeRequestSessions(request);
      const issued = await app.sessions.create(result.id, { userAgent: request.headers['user-agent'], ip: request.ip });
      app.sessions.setCookie(reply, issued);
      return { success: true, user: result, token: issued.bearerToken, message: 'Login successful' };
    },
  );

  /**
   * Failed sign-ins are limited per address and per account from that address (decision 0010). Only
   * failures count, after the password check; `reserve` keeps parallel guesses within the limits meanwhile.
   * An address over its limit is refused before the name is even looked up, so refused attempts cost no
   * counters. The account-wide count only slows attempts: a correct password from a new address gets in.
   */
  async function authenticateWithLimits(ip: string, body: { username: string; password: string }, reply: FastifyReply) {
    const ipWait = await reached(counter, keys.loginIp(ip), LIMITS.loginFailuresPerIp, now());
    if (ipWait !== null) throw tooManyRequests(reply, limitMessages.login(ipWait), ipWait);
    const account = await findLoginAccount(db, body.username);
    const guards: FailureGuard[] = [
      { failures: keys.loginIp(ip), inFlight: keys.loginIpInFlight(ip), limit: LIMITS.loginFailuresPerIp },
      {
        failures: keys.loginAccountIp(account.accountKey, ip),
        inFlight: keys.loginAccountIpInFlight(account.accountKey, ip),
        limit: LIMITS.loginFailuresPerAccountIp,
      },
    ];
    const place = await reserve(counter, guards, now);
    if ('refusedFor' in place) throw tooManyRequests(reply, limitMessages.login(place.refusedFor), place.refusedFor);
    try {
      const accountKey = keys.loginAccount(account.accountKey);
      const delay = accountDelayMs((await counter.peek(accountKey)).count);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const user = await verifyLogin(account, body.password);
      if (user) {
        await counter.reset(guards[1].failures);
        return user;
      }
      await Promise.all([
        counter.hit(guards[0].failures, LIMITS.loginFailuresPerIp.windowMs),
        counter.hit(guards[1].failures, LIMITS.loginFailuresPerAccountIp.windowMs),
        counter.hit(accountKey, LIMITS.loginFailuresPerAccount.windowMs),
      ]);
      return null;
    } finally {
      await place.release();
    }
  }

  app.post(
    '/api/users/logout',
    { schema: { tags: ['auth'], summary: 'End this session (cookie and bearer)', response: { 200: successMessageSchema, 403: errorSchema } } },
    async (request, reply) => {
      await app.sessions.revokeRequestSessions(request);
      app.sessions.clearCookie(reply);
      return { success: true, message: 'Logged out successfully' };
    },
  );

  app.get(
    '/api/users/check-auth',
    { schema: { tags: ['auth'], summary: 'Who is signed in; never 401', response: { 200: authStatusSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const auth = request.auth;
      return auth
        ? { isAuthenticated: true, user: { id: auth.userId, role: auth.role } }
        : { isAuthenticated: false, user: null };
    },
  );

  app.get(
    '/api/users/check-admin',
    { schema: { tags: ['auth'], summary: 'Whether the caller is an administrator', response: { 200: adminStatusSchema } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { isAuthenticated: request.auth !== null, isAdmin: request.auth?.role === 'admin' };
    },
  );

  app.post(
    '/api/users/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a reset link; the same answer whether or not the address has an account',
        body: forgotPasswordSchema,
        response: { 200: forgotPasswordResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const email = request.body.email;
      // One step at a time, each counted only when the ones before it passed: requests refused for an
      // address never reach the counter of the email address, so a stranger cannot use up the owner's
      // (decision 0011).
      for (const check of [
        [keys.forgotIp(request.ip), LIMITS.forgotPerIp],
        [keys.forgotAccountIp(email, request.ip), LIMITS.forgotPerAccountIp],
        [keys.forgotAccount(email), LIMITS.forgotPerAccount],
      ] satisfies Array<[string, Limit]>) {
        const wait = await record(counter, [check], now());
        if (wait !== null) throw tooManyRequests(reply, limitMessages.forgot(wait), wait);
      }
      const target = await findResetTarget(app.deps, email);
      if (target) {
        // Issuing (a write and a queued mail) starts once the answer has gone, so known and unknown
        // addresses answer in the same time: started earlier, its queries would interleave with the
        // answer's own hooks and slow it.
        const sent = new Promise<void>((resolve) => {
          reply.raw.once('finish', resolve);
          reply.raw.once('close', resolve);
        });
        const task = sent
          .then(() => issueResetToken(app.deps, target))
          .catch((error) => request.log.error({ err: error }, 'could not issue a password reset'));
        background.add(task);
        void task.finally(() => background.delete(task));
      }
      return FORGOT_PASSWORD_ANSWER;
    },
  );

  app.post(
    '/api/users/reset-password',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed token; ends every session of the account',
        body: resetPasswordSchema,
        response: { 200: successMessageSchema, ...errors },
      },
    },
    async (request) => {
      await resetPassword(app.deps, app.sessions, request.body);
      return { success: true, message: 'Your password has been reset. You can now sign in with your new password.' };
    },
  );

  app.get(
    '/api/generate-password',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'A strong random password suggestion', response: { 200: generatedPasswordSchema, 429: errorSchema } },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { password: generatePassword() };
    },
  );
};

export const authRoutes = fp(plugin, { name: 'auth-routes' });
