import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { adminPostSchema, adminPostSummarySchema, postInputSchema, publishInputSchema } from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { blogPosts } from '../../db/schema';
import { conflict, notFound } from '../../platform/errors';
import { getSetting } from '../../platform/settings';
import { actorOf, audit } from '../../platform/audit';
import { uniqueViolation } from '../../platform/db-errors';
import { getAdminPost, listAdminPosts, postColumns, preparePost, toAdminPost } from './posts-service';

const refusals = { 401: errorSchema, 403: errorSchema };
const slugTaken = () => conflict('A post with this slug already exists', { slug: 'A post with this slug already exists' });

/** Blog post management: drafts and published posts, HTML sanitized on save, unique slugs. */
export const adminPostsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const clock = app.deps.clock;

  const guardSlug = async <T>(work: () => Promise<T>) => {
    try {
      return await work();
    } catch (error) {
      if (uniqueViolation(error) !== null) throw slugTaken();
      throw error;
    }
  };

  app.get(
    '/api/admin/posts',
    { schema: { tags: ['admin'], summary: 'Every post, drafts included', response: { 200: z.array(adminPostSummarySchema), ...refusals } } },
    async () => listAdminPosts(db),
  );

  app.get(
    '/api/admin/posts/:id',
    { schema: { tags: ['admin'], params: idParam, response: { 200: adminPostSchema, 404: errorSchema, ...refusals } } },
    async (request) => {
      const post = await getAdminPost(db, request.params.id);
      if (!post) throw notFound('Post not found');
      return post;
    },
  );

  app.post(
    '/api/admin/posts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a post',
        body: postInputSchema,
        response: { 201: adminPostSchema, 400: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const values = await preparePost(db, request.body);
      const content = await getSetting<{ authorName?: string }>(db, 'site.content');
      const now = clock.now();
      const post = await guardSlug(() =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .insert(blogPosts)
            .values({
              ...values,
              isPublished: request.body.isPublished,
              publishedAt: now,
              authorId: request.auth!.userId,
              authorName: content?.authorName ?? null,
              createdAt: now,
              updatedAt: now,
            })
            .returning(postColumns);
          await audit(tx, actorOf(request), { action: 'post.create', targetType: 'post', targetId: row.id, details: { slug: row.slug, isPublished: row.isPublished } }, now);
          return toAdminPost(row);
        }),
      );
      return reply.status(201).send(post);
    },
  );

  app.put(
    '/api/admin/posts/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Edit a post',
        params: idParam,
        body: postInputSchema,
        response: { 200: adminPostSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...refusals },
      },
    },
    async (request) => {
      const values = await preparePost(db, request.body);
      const now = clock.now();
      return guardSlug(() =>
        db.transaction(async (tx) => {
          const before = await getAdminPost(tx, request.params.id, true);
          if (!before) throw notFound('Post not found');
          const publishing = request.body.isPublished && !before.isPublished;
          const [row] = await tx
            .update(blogPosts)
            .set({
              ...values,
              isPublished: request.body.isPublished,
              // A draft going live is dated the day it is published.
              ...(publishing ? { publishedAt: now } : {}),
              updatedAt: now,
            })
            .where(eq(blogPosts.id, before.id))
            .returning(postColumns);
          await audit(tx, actorOf(request), { action: 'post.update', targetType: 'post', targetId: row.id, details: { slug: row.slug, isPublished: row.isPublished } }, now);
          return toAdminPost(row);
        }),
      );
    },
  );

  app.post(
    '/api/admin/posts/:id/publish',
    {
      schema: {
        tags: ['admin'],
        summary: 'Publish or unpublish a post',
        params: idParam,
        body: publishInputSchema,
        response: { 200: adminPostSchema, 400: errorSchema, 404: errorSchema, ...refusals },
      },
    },
    async (request) => {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const before = await getAdminPost(tx, request.params.id, true);
        if (!before) throw notFound('Post not found');
        const publishing = request.body.isPublished && !before.isPublished;
        const [row] = await tx
          .update(blogPosts)
          .set({ isPublished: request.body.isPublished, ...(publishing ? { publishedAt: now } : {}), updatedAt: now })
          .where(eq(blogPosts.id, before.id))
          .returning(postColumns);
        await audit(tx, actorOf(request), { action: request.body.isPublished ? 'post.publish' : 'post.unpublish', targetType: 'post', targetId: row.id, details: { slug: row.slug } }, now);
        return toAdminPost(row);
      });
    },
  );
};
