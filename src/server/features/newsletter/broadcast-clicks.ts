import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CLICK_MESSAGES, clickParamsSchema, clickQuerySchema } from '@shared/schemas/broadcasts';
import type { DbOrTx } from '../../db/client';
import { broadcastClicks, broadcasts } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { escapeMarkup } from '../../platform/http/markup';
import { mailLinks, verifyClickSignature } from './broadcast-links';
import { mailLinkPage } from './unsubscribe-page';

/** Every web link of a broadcast's mail with the clicks it has had, in the mail's order. */
export async function linksWithClicks(db: DbOrTx, broadcastId: number, body: string, publicUrl: URL) {
  const rows = await db
    .select({ url: broadcastClicks.url, clicks: broadcastClicks.clicks })
    .from(broadcastClicks)
    .where(eq(broadcastClicks.broadcastId, broadcastId));
  const counted = new Map(rows.map((r) => [r.url, r.clicks]));
  return mailLinks(body, publicUrl).map((url) => ({ url, clicks: counted.get(url) ?? 0 }));
}

async function recordClick(db: DbOrTx, broadcastId: number, url: string, now: Date): Promise<void> {
  await db
    .insert(broadcastClicks)
    .values({ broadcastId, urlHash: sha256(url), url, clicks: 1, lastClickedAt: now })
    .onConflictDoUpdate({
      target: [broadcastClicks.broadcastId, broadcastClicks.urlHash],
      set: { clicks: sql`${broadcastClicks.clicks} + 1`, lastClickedAt: now },
    });
}

/**
 * The click redirect (decision 0090). It sends the reader on only to a target that is a link of that
 * broadcast's mail and whose signature verifies, so nobody can use the site's address to send people
 * elsewhere: a changed target or signature, or an unknown broadcast, gets a page that says so.
 */
export const clickRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { publicUrl } = app.deps.config;
  const refuse = (status: number, title: string, words: string) =>
    ({ status, html: mailLinkPage(title, `<p>${escapeMarkup(words)}</p>`, publicUrl) }) as const;

  app.get(
    '/r/:id/:signature',
    {
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      schema: {
        tags: ['newsletter'],
        summary: "A link in a broadcast: counts the click and goes on to the mail's target",
        params: clickParamsSchema,
        querystring: clickQuerySchema,
      },
    },
    async (request, reply) => {
      const { id, signature } = request.params;
      const target = request.query.u;
      const [row] = await db.select({ body: broadcasts.body }).from(broadcasts).where(eq(broadcasts.id, id));
      const refusal = !row
        ? refuse(404, CLICK_MESSAGES.unknownTitle, CLICK_MESSAGES.unknown)
        : !verifyClickSignature(app.deps.secret, id, target, signature) || !mailLinks(row.body, publicUrl).includes(target)
          ? refuse(400, CLICK_MESSAGES.invalidTitle, CLICK_MESSAGES.invalid)
          : null;
      reply.header('Cache-Control', 'no-store');
      if (refusal) return reply.status(refusal.status).type('text/html; charset=utf-8').send(refusal.html);
      // A HEAD request is a link checker's look, not a reader's click.
      if (request.method === 'GET') await recordClick(db, id, target, app.deps.clock.now());
      return reply.redirect(target, 302);
    },
  );
};
