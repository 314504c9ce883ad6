import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { siteAnswerSchema } from '@shared/schemas/site';
import { DEMO_READER } from '../../platform/operations/demo-reader';
import { cachedAnswer, jsonAnswer, sendCachedAnswer } from '../../platform/http/cached-answer';
import { rssXml, robotsTxt, sitemapXml } from './feeds';
import { registerPageRenderers } from './pages';
import { registerHeadRenderers, siteData } from './seo';
import { lastBookUpdate } from './service';
import { canonicalBlogPagePath } from './blog-pages';
import { blogPagePathParam } from '@shared/schemas/blog';
import { publishedBlog } from '../blog/service';
import { catalogueData } from '../catalogue/service';

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

  // Another spelling of a blog-list page number (/blog/page/1, /blog/page/007) is sent to the page's one
  // address; every other path under /blog/page/ is the app's page as usual (a page, or the not-found page).
  app.get('/blog/page/:page', { schema: { hide: true, params: blogPagePathParam } }, async (request, reply) => {
    const canonical = canonicalBlogPagePath(request.params.page);
    if (canonical) return reply.redirect(canonical, 301);
    return reply.callNotFound();
  });

  // Every post is listed (2,000 posts make some 300 KB), so the sitemap is built and compressed once per
  // cache fill rather than on every crawler's request.
  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
    const { answer } = await app.deps.cache.get(
      'sitemap',
      async () => {
        const [{ posts, nextPublishAt }, modified, { catalogue }] = await Promise.all([publishedBlog(app.deps), lastBookUpdate(db), catalogueData(app.deps)]);
        const slugs = catalogue.books.map((b) => b.slug);
        return { answer: await cachedAnswer(sitemapXml(config.publicUrl, posts, modified, slugs), 'application/xml; charset=utf-8'), nextPublishAt };
      },
      // A scheduled post joins the sitemap when it is due, as it joins the blog.
      { staleAt: (built) => built.nextPublishAt },
    );
    return sendCachedAnswer(request, reply, answer, { cacheControl: 'public, max-age=3600', sameForEveryone: false });
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
