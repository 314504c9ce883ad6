import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { contactAnswerSchema, contactSchema } from '@shared/schemas/contact';
import { submitContactMessage } from './service';

/** Per IP: enough for a real correspondent, too few for a spam run. */
export const CONTACT_LIMIT = { max: 5, timeWindow: 10 * 60 * 1000 };

/** Routes of the contact domain. */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/contact',
    {
      config: { rateLimit: CONTACT_LIMIT },
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the author',
        body: contactSchema,
        response: { 201: contactAnswerSchema, 400: errorSchema, 403: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const { database, mailer, config } = app.deps;
      await submitContactMessage(database.db, mailer, config.AUTHOR_EMAIL, request.body);
      return reply.status(201).send({ message: "Thank you for your message. I'll get back to you soon." });
    },
  );
};
