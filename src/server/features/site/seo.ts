import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { CURRENCY, formatPrice } from '@shared/constants';
import type { HeadTags } from '../../platform/http/spa';
import { getSiteData } from './service';
import { blogPagePath } from '@shared/schemas/blog';
import { publishedBlog } from '../blog/service';
import { blogListPageOf } from './blog-pages';
import { preOrderJsonLd } from '../pre-orders/service';

/** What every page reads (content, featured book, prices, reviews), from the public cache. */
export const siteData = (deps: AppDeps) => deps.cache.get('site', () => getSiteData(deps.database.db));

const abs = (publicUrl: URL, p: string) => new URL(p, publicUrl).toString();
/** The 1200x630 social card (raster: card renderers do not draw SVG covers). */
export const SOCIAL_CARD = { path: '/images/og-image.png', width: '1200', height: '630' };
const FORMAT_NAMES: Record<string, string> = {
  hardcover: 'https://schema.org/Hardcover',
  paperback: 'https://schema.org/Paperback',
  ebook: 'https://schema.org/EBook',
  audiobook: 'https://schema.org/AudiobookFormat',
};

/** Home page head: social cards and a schema.org Book with an Offer per format and the rating. */
export async function homeHead(deps: AppDeps): Promise<HeadTags | null> {
  const { publicUrl } = deps.config;
  const site = await siteData(deps);
  const book = site.featuredBook;
  if (!book) return null;
  const { content } = site;
  const title = `${book.title} | ${content.authorName}`;
  const description = `${book.tagline} ${content.heroBlurb}`;
  const url = abs(publicUrl, '/');
  const image = abs(publicUrl, SOCIAL_CARD.path);
  const author = { '@type': 'Person', name: content.authorName, url: abs(publicUrl, '/#author') };
  const offers = site.formats
    .filter((f) => f.price !== null)
    .map((f) => ({
      '@type': 'Offer',
      name: f.title,
      price: (f.price! / 100).toFixed(2),
      priceCurrency: CURRENCY,
      availability: 'https://schema.org/InStock',
      url: abs(publicUrl, '/#purchase'),
      itemCondition: 'https://schema.org/NewCondition',
      description: `${f.title}, ${formatPrice(f.price!)}`,
    }));
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Book',
    '@id': `${url}#book`,
    name: book.title,
    description: book.synopsis.split('\n\n')[0],
    author,
    publisher: { '@type': 'Organization', name: book.publisher },
    datePublished: String(book.yearPublished),
    image: abs(publicUrl, book.coverImage),
    url,
    inLanguage: 'en-GB',
    genre: ['Thriller', 'Psychological thriller', 'Family drama'],
    bookFormat: site.formats.map((f) => FORMAT_NAMES[f.id]).filter(Boolean),
    offers,
    // Only verified reviews (approved, by readers who own the book) count: the author's chosen early-reader
    // quotes are on the page but are not a rating (decision 0085). No rating is claimed before one exists.
    ...(site.verifiedRating
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: site.verifiedRating.value,
            bestRating: 5,
            worstRating: 1,
            ratingCount: site.verifiedRating.count,
            reviewCount: site.verifiedRating.count,
          },
          review: site.verifiedReviews.map((r) => ({
            '@type': 'Review',
            reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
            author: { '@type': 'Person', name: r.author },
            reviewBody: r.text,
          })),
        }
      : {}),
  };
  return {
    title,
    description,
    canonical: url,
    openGraph: {
      type: 'book',
      title,
      description,
      url,
      image,
      'image:width': SOCIAL_CARD.width,
      'image:height': SOCIAL_CARD.height,
      'image:alt': `${book.title}, a thriller by ${content.authorName}`,
      site_name: content.siteTitle,
      locale: 'en_GB',
    },
    twitter: { card: 'summary_large_image', title, description, image },
    jsonLd: [jsonLd, ...(await preOrderJsonLd(deps))],
  };
}

/** A post's head: its own card and a schema.org BlogPosting; an unknown slug is a real 404. */
export async function postHead(deps: AppDeps, slug: string): Promise<HeadTags | { notFound: true }> {
  const { publicUrl } = deps.config;
  const found = await (await publishedBlog(deps)).find(slug);
  if (!found) return { notFound: true };
  const { post } = found;
  const site = await siteData(deps);
  const siteTitle = site.content.siteTitle;
  const url = abs(publicUrl, `/blog/${post.id}`);
  const image = abs(publicUrl, post.coverImage ?? SOCIAL_CARD.path);
  const title = `${post.title} | ${siteTitle}`;
  return {
    title,
    description: post.excerpt,
    canonical: url,
    openGraph: {
      type: 'article',
      title: post.title,
      description: post.excerpt,
      url,
      image,
      site_name: siteTitle,
      locale: 'en_GB',
    },
    twitter: { card: 'summary_large_image', title: post.title, description: post.excerpt, image },
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: post.title,
        description: post.excerpt,
        datePublished: post.date,
        author: { '@type': 'Person', name: post.author },
        publisher: { '@type': 'Person', name: site.content.authorName },
        mainEntityOfPage: { '@type': 'WebPage', '@id': url },
        url,
        image,
        keywords: post.tags.join(', '),
        inLanguage: 'en-GB',
      },
    ],
  };
}

/**
 * The head of a page of the blog list: its own canonical URL, and rel prev/next links to the pages either
 * side so crawlers walk the archive. A page past the last is a real 404.
 */
export async function blogListHead(deps: AppDeps, page = 1): Promise<HeadTags | { notFound: true }> {
  const { publicUrl } = deps.config;
  const found = await (await publishedBlog(deps)).page(page);
  if (!found) return { notFound: true };
  const { prevPage, nextPage, totalPages } = found.page;
  const url = abs(publicUrl, blogPagePath(page));
  const title = page > 1 ? `Blog, page ${page} of ${totalPages} | What We Owe the Dead` : 'Blog | What We Owe the Dead';
  const description = 'Notes from Callum Reyes on writing, the craft of suspense and the stories behind the novels.';
  const links = [
    ...(prevPage ? [{ rel: 'prev', href: abs(publicUrl, blogPagePath(prevPage)) }] : []),
    ...(nextPage ? [{ rel: 'next', href: abs(publicUrl, blogPagePath(nextPage)) }] : []),
  ];
  return {
    title,
    description,
    canonical: url,
    links,
    openGraph: { type: 'website', title, description, url, site_name: 'What We Owe the Dead', locale: 'en_GB' },
    twitter: { card: 'summary', title, description },
  };
}

export function registerHeadRenderers(app: FastifyInstance): void {
  app.addHeadRenderer({
    match: (p) => (p === '/' ? {} : null),
    render: () => homeHead(app.deps),
  });
  app.addHeadRenderer({
    match: (p) => {
      const page = blogListPageOf(p);
      return page === null ? null : { page: String(page) };
    },
    render: (_request, params) => blogListHead(app.deps, Number(params.page)),
  });
  app.addHeadRenderer({
    match: (p) => {
      const m = /^\/blog\/([^/]+)\/?$/.exec(p);
      if (!m) return null;
      try {
        return { slug: decodeURIComponent(m[1]) };
      } catch {
        return { slug: '' }; // malformed escape: no such post
      }
    },
    render: (_request, params) => postHead(app.deps, params.slug),
  });
}
