import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blogListQuery,
  blogPageParam,
  blogPageSchema,
  blogPostSchema,
  blogPostSummarySchema,
  blogSlugParam,
} from '@shared/schemas/blog';
import { errorSchema } from '@shared/schemas/common';
import { sendCachedAnswer } from '../../platform/http/cached-answer';
import { notFound } from '../../platform/http/errors';
import { publishedBlog } from './service';

/**
 * Routes of the blog domain, all from the public cache: the newest posts as a plain list, one page of the
 * blog list with its page links, and one post by slug. No answer holds the whole archive (ADR 0067).
 */
export const blogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/blog',
    {
      config: { publicRead: true },
      schema: {
        tags: ['blog'],
        summary: 'Published posts, newest first: `limit` of them (default 12, at most 50) from page `page` (default 1)',
        querystring: blogListQuery,
        response: { 200: z.array(blogPostSummarySchema), 404: errorSchema },
      },
    },
    async (request, reply) => {
      const { page, limit } = request.query;
      const answer = await (await publishedBlog(app.deps)).list(page, limit);
      if (!answer) throw notFound('There is no such page of the blog');
      return sendCachedAnswer(request, reply, answer);
    },
  );

  app.get(
    '/api/blog/page/:page',
    {
      config: { publicRead: true },
      schema: {
        tags: ['blog'],
        summary: 'One page of the blog list (12 posts, newest first) with the page count and the pages either side',
        params: blogPageParam,
        response: { 200: blogPageSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const found = await (await publishedBlog(app.deps)).page(request.params.page);
      if (!found) throw notFound('There is no such page of the blog');
      return sendCachedAnswer(request, reply, found.answer);
    },
  );

  app.get(
    '/api/blog/:slug',
    {
      config: { publicRead: true },
      schema: {
        tags: ['blog'],
        summary: 'One published post by slug, HTML sanitized',
        params: blogSlugParam,
        response: { 200: blogPostSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const found = await (await publishedBlog(app.deps)).find(request.params.slug);
      if (!found) throw notFound('Blog post not found');
      return sendCachedAnswer(request, reply, found.answer);
    },
  );
};
