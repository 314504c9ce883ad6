import type { BlogPostSummary } from '@shared/schemas/blog';
import { escapeMarkup } from '../../platform/http/markup';
import { bookPath } from '@shared/schemas/catalogue';

const abs = (publicUrl: URL, p: string) => new URL(p, publicUrl).toString();

export function sitemapXml(publicUrl: URL, posts: BlogPostSummary[], homeModified: Date | null, bookSlugs: string[] = []): string {
  const newest = posts[0]?.date;
  const booksModified = homeModified?.toISOString();
  const urls = [
    { loc: abs(publicUrl, '/'), lastmod: booksModified, priority: '1.0' },
    { loc: abs(publicUrl, '/books'), lastmod: booksModified, priority: '0.9' },
    ...bookSlugs.map((slug) => ({ loc: abs(publicUrl, bookPath(slug)), lastmod: booksModified, priority: '0.9' })),
    { loc: abs(publicUrl, '/blog'), lastmod: newest, priority: '0.8' },
    ...posts.map((p) => ({ loc: abs(publicUrl, `/blog/${p.id}`), lastmod: p.date, priority: '0.6' })),
  ];
  const body = urls
    .map(
      (u) =>
        `  <url>\n    <loc>${escapeMarkup(u.loc)}</loc>\n${u.lastmod ? `    <lastmod>${u.lastmod.slice(0, 10)}</lastmod>\n` : ''}    <priority>${u.priority}</priority>\n  </url>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

/** Crawlers may read the public site; account, admin and payment pages are nobody's search result. */
export function robotsTxt(publicUrl: URL): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /admin',
    'Disallow: /dashboard',
    'Disallow: /profile',
    'Disallow: /checkout',
    'Disallow: /pay/',
    'Disallow: /login',
    'Disallow: /forgot-password',
    'Disallow: /reset-password',
    'Disallow: /login-link',
    'Disallow: /free/*/confirm',
    '',
    `Sitemap: ${abs(publicUrl, '/sitemap.xml')}`,
    '',
  ].join('\n');
}

export function rssXml(
  publicUrl: URL,
  site: { title: string; author: string },
  posts: BlogPostSummary[],
): string {
  const items = posts
    .map((p) => {
      const link = abs(publicUrl, `/blog/${p.id}`);
      return [
        '    <item>',
        `      <title>${escapeMarkup(p.title)}</title>`,
        `      <link>${escapeMarkup(link)}</link>`,
        `      <guid isPermaLink="true">${escapeMarkup(link)}</guid>`,
        `      <pubDate>${new Date(p.date).toUTCString()}</pubDate>`,
        `      <dc:creator>${escapeMarkup(p.author)}</dc:creator>`,
        ...p.tags.map((t) => `      <category>${escapeMarkup(t)}</category>`),
        `      <description>${escapeMarkup(p.excerpt)}</description>`,
        '    </item>',
      ].join('\n');
    })
    .join('\n');
  const self = abs(publicUrl, '/rss.xml');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeMarkup(`${site.title}: Blog`)}</title>
    <link>${escapeMarkup(abs(publicUrl, '/blog'))}</link>
    <atom:link href="${escapeMarkup(self)}" rel="self" type="application/rss+xml" />
    <description>${escapeMarkup(`Notes from ${site.author} on writing, suspense and the stories behind the novels.`)}</description>
    <language>en-gb</language>
${posts[0] ? `    <lastBuildDate>${new Date(posts[0].date).toUTCString()}</lastBuildDate>\n` : ''}${items}
  </channel>
</rss>
`;
}
