import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { siteAnswerSchema } from '@shared/schemas/site';
import { DEMO_READER } from '../../platform/demo-reader';
import { jsonAnswer, sendCachedAnswer } from '../../platform/cached-answer';
import { rssXml, robotsTxt, sitemapXml } from './feeds';
import { registerPageRenderers } from './pages';
import { registerHeadRenderers, siteData } from './seo';
import { lastBookUpdate } from './service';
import { publishedBlog } from '../blog/service';

/** Routes of the site domain: home-page content, the crawler head tags, sitemap, robots and RSS. */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { config } = app.deps;

  app.get(
    '/api/site',
    {
      config: { publicRead: true },
      schema: {
        tags: ['site'],
        summary: 'Home-page content, gallery, reviews, books and the demo-login switch',
        response: { 200: siteAnswerSchema },
      },
    },
    async (request, reply) => {
      const answer = await app.deps.cache.get('site:answer', async () =>
        jsonAnswer(siteAnswerSchema, {
          ...(await siteData(app.deps)),
          demoLogin: config.demoLoginEnabled ? { username: DEMO_READER.username, password: DEMO_READER.password } : null,
        }),
      );
      return sendCachedAnswer(request, reply, answer);
    },
  );

  registerHeadRenderers(app);
  registerPageRenderers(app);

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const [{ posts }, modified] = await Promise.all([publishedBlog(app.deps), lastBookUpdate(db)]);
    return reply
      .type('application/xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(sitemapXml(config.publicUrl, posts, modified));
  });

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(robotsTxt(config.publicUrl)),
  );

  app.get('/rss.xml', { schema: { hide: true } }, async (_request, reply) => {
    const posts = (await publishedBlog(app.deps)).posts.slice(0, 50);
    const { content } = await siteData(app.deps);
    return reply
      .type('application/rss+xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=900')
      .send(rssXml(config.publicUrl, { title: content.siteTitle, author: content.authorName }, posts));
  });
};
