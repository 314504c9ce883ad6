import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blogPostSchema, blogPostSummarySchema, blogSlugParam } from '@shared/schemas/blog';
import { errorSchema } from '@shared/schemas/common';
import { notFound } from '../../platform/errors';
import { getPublishedPost, listPublishedPosts } from './service';

/** Routes of the blog domain: the public list and one post by slug. */
export const blogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/api/blog',
    {
      schema: {
        tags: ['blog'],
        summary: 'Published posts, newest first',
        response: { 200: z.array(blogPostSummarySchema) },
      },
    },
    async () => listPublishedPosts(db, app.deps.clock.now()),
  );

  app.get(
    '/api/blog/:slug',
    {
      schema: {
        tags: ['blog'],
        summary: 'One published post by slug, HTML sanitized',
        params: blogSlugParam,
        response: { 200: blogPostSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const post = await getPublishedPost(db, request.params.slug, app.deps.clock.now());
      if (!post) throw notFound('Blog post not found');
      return post;
    },
  );
};
