import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginResponseSchema } from '@shared/schemas/auth';
import { errorSchema } from '@shared/schemas/common';
import { LOGIN_LINK_ANSWER, loginLinkAnswerSchema, loginLinkRequestSchema, loginLinkUseSchema } from '@shared/schemas/login-link';
import { keys, type Limit, LIMITS, limitMessages, record, tooManyRequests } from './limits';
import { requestLoginLink, useLoginLink } from './login-link-service';

const errors = { 400: errorSchema, 403: errorSchema, 409: errorSchema, 429: errorSchema };

/** Sign-in by emailed link (decision 0084): asking for a link, and using one from the page it opens. */
export const loginLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { counter, clock } = app.deps;

  // Work for an address runs after the answer (as for password resets); close() waits for it.
  const background = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...background]);
  });

  app.post(
    '/api/users/login-link',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a sign-in link; the same answer whether or not the address has an account',
        body: loginLinkRequestSchema,
        response: { 200: loginLinkAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { email, returnTo } = request.body;
      // Per address, then per email address from it, then per email address: a request refused earlier is
      // not counted against the owner's address (as for password resets, decision 0011).
      for (const check of [
        [keys.loginLinkIp(request.ip), LIMITS.loginLinkPerIp],
        [keys.loginLinkAccountIp(email, request.ip), LIMITS.loginLinkPerAccountIp],
        [keys.loginLinkAccount(email), LIMITS.loginLinkPerAccount],
      ] satisfies Array<[string, Limit]>) {
        const wait = await record(counter, [check], clock.now().getTime());
        if (wait !== null) throw tooManyRequests(reply, limitMessages.loginLink(wait), wait);
      }
      // Looking the address up and queuing the mail start once the answer has gone, so a known and an
      // unknown address answer alike, in content and in time.
      const sent = new Promise<void>((resolve) => {
        reply.raw.once('finish', resolve);
        reply.raw.once('close', resolve);
      });
      const task = sent
        .then(() => requestLoginLink(app.deps, email, returnTo))
        .catch((error) => request.log.error({ err: error }, 'could not send a sign-in link'));
      background.add(task);
      void task.finally(() => background.delete(task));
      return LOGIN_LINK_ANSWER;
    },
  );

  app.post(
    '/api/users/login-link/use',
    {
      config: { rateLimit: { max: 20, timeWindow: '15 minutes' } },
      schema: {
        tags: ['auth'],
        summary: 'Use an emailed sign-in link (once, within 15 minutes) and start a session',
        body: loginLinkUseSchema,
        response: { 200: loginResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await useLoginLink(app.deps, request.body.token);
      // The same session a password sign-in starts; whatever session this browser held before ends.
      if (request.auth) await app.sessions.revokeRequestSessions(request);
      const issued = await app.sessions.create(user.id, { userAgent: request.headers['user-agent'], ip: request.ip });
      app.sessions.setCookie(reply, issued);
      return { success: true, user, token: issued.bearerToken, message: 'Login successful' };
    },
  );
};
