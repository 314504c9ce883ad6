import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blogPostSchema, blogPostSummarySchema, blogSlugParam } from '@shared/schemas/blog';
import { errorSchema } from '@shared/schemas/common';
import { sendCachedAnswer } from '../../platform/cached-answer';
import { notFound } from '../../platform/errors';
import { publishedBlog } from './service';

/** Routes of the blog domain: the public list and one post by slug, both from the public cache. */
export const blogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/blog',
    {
      config: { publicRead: true },
      schema: {
        tags: ['blog'],
        summary: 'Published posts, newest first',
        response: { 200: z.array(blogPostSummarySchema) },
      },
    },
    async (request, reply) => sendCachedAnswer(request, reply, (await publishedBlog(app.deps)).list),
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
