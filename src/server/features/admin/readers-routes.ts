import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import {
  adminSubscriberSchema,
  adminUserSchema,
  messageListSchema,
  messageQuerySchema,
  adminMessageSchema,
  readInputSchema,
} from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { contactMessages, newsletterSubscribers, purchases, users } from '../../db/schema';
import { qualified } from '../../db/qualified';
import { notFound } from '../../platform/errors';
import { actorOf, audit } from '../../platform/audit';
import { toCsv } from './csv';

const refusals = { 401: errorSchema, 403: errorSchema };
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toMessage = (m: typeof contactMessages.$inferSelect) => ({ ...m, createdAt: m.createdAt.toISOString(), readAt: iso(m.readAt) });

/** The contact inbox, the newsletter list (with a CSV export) and the accounts with their roles. */
export const adminReadersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { clock } = app.deps;

  app.get(
    '/api/admin/messages',
    { schema: { tags: ['admin'], querystring: messageQuerySchema, response: { 200: messageListSchema, ...refusals } } },
    async (request) => {
      const rows = await db
        .select()
        .from(contactMessages)
        .where(request.query.filter === 'unread' ? isNull(contactMessages.readAt) : undefined)
        .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(500);
      const [{ n }] = await db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt));
      return { items: rows.map(toMessage), unread: Number(n) };
    },
  );

  app.post(
    '/api/admin/messages/:id/read',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a message read or unread',
        params: idParam,
        body: readInputSchema,
        response: { 200: adminMessageSchema, 404: errorSchema, ...refusals },
      },
    },
    async (request) => {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(contactMessages)
          .set({ readAt: request.body.read ? sql`coalesce(${contactMessages.readAt}, ${now.toISOString()}::timestamptz)` : null })
          .where(eq(contactMessages.id, request.params.id))
          .returning();
        if (!row) throw notFound('Message not found');
        await audit(tx, actorOf(request), { action: request.body.read ? 'message.read' : 'message.unread', targetType: 'contact_message', targetId: row.id }, now);
        return toMessage(row);
      });
    },
  );

  const subscriberColumns = {
    id: newsletterSubscribers.id,
    email: newsletterSubscribers.email,
    name: newsletterSubscribers.name,
    subscribedAt: newsletterSubscribers.subscribedAt,
    unsubscribedAt: newsletterSubscribers.unsubscribedAt,
  };

  app.get(
    '/api/admin/subscribers',
    { schema: { tags: ['admin'], response: { 200: z.array(adminSubscriberSchema), ...refusals } } },
    async () => {
      const rows = await db.select(subscriberColumns).from(newsletterSubscribers).orderBy(desc(newsletterSubscribers.subscribedAt));
      return rows.map((r) => ({ ...r, subscribedAt: r.subscribedAt.toISOString(), unsubscribedAt: iso(r.unsubscribedAt) }));
    },
  );

  app.get(
    '/api/admin/subscribers.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'Active newsletter subscribers as CSV (safe to open in a spreadsheet)',
        produces: ['text/csv'],
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const rows = await db
        .select(subscriberColumns)
        .from(newsletterSubscribers)
        .where(isNull(newsletterSubscribers.unsubscribedAt))
        .orderBy(asc(newsletterSubscribers.subscribedAt));
      const now = clock.now();
      await audit(db, actorOf(request), { action: 'subscribers.export', targetType: 'newsletter', details: { rows: rows.length } }, now);
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="thriller-circle-subscribers-${now.toISOString().slice(0, 10)}.csv"`)
        .header('Cache-Control', 'no-store');
      return toCsv(
        ['email', 'name', 'subscribed_at'],
        rows.map((r) => [r.email, r.name, r.subscribedAt]),
      );
    },
  );

  app.get(
    '/api/admin/users',
    { schema: { tags: ['admin'], response: { 200: z.array(adminUserSchema), ...refusals } } },
    async () => {
      const rows = await db
        .select({
          id: users.id,
          username: users.username,
          email: users.email,
          displayName: users.displayName,
          role: users.role,
          isSubscribed: users.isSubscribed,
          createdAt: users.createdAt,
          purchases: sql<number>`(select count(*) from ${purchases} where ${qualified(purchases.userId)} = ${qualified(users.id)})`.mapWith(Number),
        })
        .from(users)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(1000);
      return rows.map((r) => ({ ...r, role: r.role as Role, createdAt: r.createdAt.toISOString() }));
    },
  );
};
