/**
 * /books and /books/{slug} drawn by the server like the home page and the blog (decisions 0020, 0067):
 * the data embedded under the client's query keys, and the head with the book's schema.org JSON-LD.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CURRENCY, formatPrice } from '@shared/constants';
import { storeFormatsResponseSchema } from '@shared/schemas/checkout';
import { bookPageSchema, bookPath, catalogueSchema, seriesLabel, type BookPage } from '@shared/schemas/catalogue';
import type { AppDeps } from '../../deps';
import type { HeadTags } from '../../platform/http/spa';
import { AUTHOR, BOOK_NOT_FOUND, catalogueData } from './service';

const abs = (publicUrl: URL, p: string) => new URL(p, publicUrl).toString();
const SITE_NAME = 'What We Owe the Dead';

const FORMAT_TYPES: Record<string, string> = {
  hardcover: 'https://schema.org/Hardcover',
  paperback: 'https://schema.org/Paperback',
  ebook: 'https://schema.org/EBook',
  audiobook: 'https://schema.org/AudiobookFormat',
};

/** The path's slug, or null when the path is not a book page. */
function slugOf(pathname: string): { slug: string; raw: string } | null {
  const m = /^\/books\/([^/]+)\/?$/i.exec(pathname);
  if (!m) return null;
  try {
    return { slug: decodeURIComponent(m[1]), raw: m[1] };
  } catch {
    return { slug: '', raw: m[1] }; // a malformed escape names no book
  }
}
const isCataloguePath = (pathname: string) => /^\/books\/?$/i.test(pathname);

/** A schema.org Book with an Offer per format on sale, each with its price and whether it ships later. */
export function bookJsonLd(publicUrl: URL, book: BookPage, now: Date): object {
  const url = abs(publicUrl, bookPath(book.slug));
  const preOrder = book.releaseAt !== null && new Date(book.releaseAt) > now;
  return {
    '@context': 'https://schema.org',
    '@type': 'Book',
    '@id': `${url}#book`,
    name: book.title,
    description: book.synopsis.split(/\n{2,}/)[0],
    author: { '@type': 'Person', name: AUTHOR },
    publisher: { '@type': 'Organization', name: book.publisher },
    datePublished: book.releaseAt ? book.releaseAt.slice(0, 10) : String(book.yearPublished),
    image: abs(publicUrl, book.coverImage),
    url,
    inLanguage: 'en-GB',
    ...(book.series
      ? { isPartOf: { '@type': 'BookSeries', name: book.series }, ...(book.seriesNumber ? { position: book.seriesNumber } : {}) }
      : {}),
    bookFormat: book.formats.map((f) => FORMAT_TYPES[f.id]).filter(Boolean),
    offers: book.formats.map((f) => ({
      '@type': 'Offer',
      name: f.title,
      price: (f.price / 100).toFixed(2),
      priceCurrency: f.currency || CURRENCY,
      availability: preOrder ? 'https://schema.org/PreOrder' : 'https://schema.org/InStock',
      ...(preOrder ? { availabilityStarts: book.releaseAt } : {}),
      itemCondition: 'https://schema.org/NewCondition',
      url: `${url}#purchase`,
      description: `${f.title}, ${formatPrice(f.price)}`,
    })),
  };
}

async function bookHead(deps: AppDeps, slug: string): Promise<HeadTags | { notFound: true }> {
  const { publicUrl } = deps.config;
  const book = (await catalogueData(deps)).pages.get(slug);
  if (!book) return { notFound: true };
  const url = abs(publicUrl, bookPath(book.slug));
  const series = seriesLabel(book);
  const title = `${book.title}${series ? ` (${series})` : ''} | ${AUTHOR}`;
  const description = book.tagline;
  const image = abs(publicUrl, book.coverImage);
  return {
    title,
    description,
    canonical: url,
    openGraph: { type: 'book', title: book.title, description, url, image, site_name: SITE_NAME, locale: 'en_GB' },
    twitter: { card: 'summary', title: book.title, description, image },
    jsonLd: [bookJsonLd(publicUrl, book, deps.clock.now())],
  };
}

async function catalogueHead(deps: AppDeps): Promise<HeadTags> {
  const { publicUrl } = deps.config;
  const { catalogue } = await catalogueData(deps);
  const url = abs(publicUrl, '/books');
  const title = `Books | ${AUTHOR}`;
  const description = `Every book by ${AUTHOR}: ${catalogue.books.map((b) => b.title).join(', ')}. Hardcover, paperback, e-book and audiobook.`;
  return {
    title,
    description,
    canonical: url,
    openGraph: { type: 'website', title, description, url, site_name: SITE_NAME, locale: 'en_GB' },
    twitter: { card: 'summary', title, description },
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'ItemList',
        name: `Books by ${AUTHOR}`,
        itemListElement: catalogue.books.map((b, i) => ({ '@type': 'ListItem', position: i + 1, url: abs(publicUrl, bookPath(b.slug)), name: b.title })),
      },
    ],
  };
}

export function registerCataloguePages(app: FastifyInstance): void {
  const notFoundError = `404: ${JSON.stringify({ message: BOOK_NOT_FOUND, code: 'NOT_FOUND' })}`;
  app.addHeadRenderer({ match: (p) => (isCataloguePath(p) ? {} : null), render: () => catalogueHead(app.deps) });
  app.addHeadRenderer({ match: slugOf, render: (_request, params) => bookHead(app.deps, params.slug) });
  app.addPageRenderer({
    match: (p) => (isCataloguePath(p) ? {} : null),
    load: async () => ({ entries: [{ key: ['/api/catalogue'], data: z.encode(catalogueSchema, (await catalogueData(app.deps)).catalogue) }] }),
  });
  app.addPageRenderer({
    match: slugOf,
    load: async ({ slug, raw }) => {
      // The query keys are the API paths the client reads the page and its purchase section from.
      const key = ['/api/catalogue', raw];
      const book = slug ? (await catalogueData(app.deps)).pages.get(slug) : undefined;
      if (!book) return { entries: [{ key, error: notFoundError }], notFound: true };
      return {
        entries: [
          { key, data: z.encode(bookPageSchema, book) },
          { key: [...key, 'formats'], data: z.encode(storeFormatsResponseSchema, { book: { id: book.id, title: book.title }, formats: book.formats }) },
        ],
      };
    },
  });
}
