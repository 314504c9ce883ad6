import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminPostSchema, postInputSchema, postPageSchema, postQuerySchema, publishInputSchema } from '@shared/schemas/admin';
import { errorSchema, idParam } from '@shared/schemas/common';
import { notFound } from '../../platform/http/errors';
import { actorOf } from '../../platform/operations/audit';
import { createPost, getAdminPost, listAdminPosts, setPostPublished, updatePost } from '../blog/service';
import { requireUser } from '../../platform/security/sessions';

const refusals = { 401: errorSchema, 403: errorSchema };

/** Blog post management: drafts and published posts, HTML sanitized on save, unique slugs. */
export const adminPostsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const clock = app.deps.clock;

  app.get(
    '/api/admin/posts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every post, drafts included, newest first, a keyset page at a time (after=<nextCursor>)',
        querystring: postQuerySchema,
        response: { 200: postPageSchema, 400: errorSchema, ...refusals },
      },
    },
    async (request) => listAdminPosts(db, request.query),
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
    async (request, reply) => reply.status(201).send(await createPost(db, request.body, requireUser(request).userId, clock.now())),
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
    async (request) => updatePost(db, request.params.id, request.body, actorOf(request), clock.now()),
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
    async (request) => setPostPublished(db, request.params.id, request.body.isPublished, actorOf(request), clock.now()),
  );
};
