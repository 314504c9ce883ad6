/**
 * The catalogue (decision 0075): series on books through the admin API, /books and /books/{slug} drawn by
 * the server with their data and JSON-LD, a real 404 for a book that is not published, the home page's
 * link, and the sitemap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, formatPrice } from '@shared/constants';
// The production server loads the build of this same entry (dist/server-render); the test renders from source.
// eslint-disable-next-line no-restricted-imports
import { renderApp } from '@client/entry-server';
import { createTestApp, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div>\s*<script id="initial-data"/.exec(html)?.[1] ?? '';
const initialData = (html: string) =>
  JSON.parse(/<script id="initial-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null') as Array<{ key: unknown[]; data?: unknown; error?: string }>;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ');
const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);

const novel = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  tagline: `The tagline of ${title}`,
  synopsis: `The first paragraph of ${title}, long enough.\n\nA second paragraph.`,
  coverImage: '/images/covers/ebook-cover.svg',
  yearPublished: 2027,
  publisher: 'Harrow & Vane',
  ...extra,
});

describe('the catalogue', () => {
  let t: TestApp;
  let admin: TestAgent;
  beforeAll(async () => {
    t = await createTestApp({ renderApp, env: { SITE_CACHE_MS: '600000' } });
    admin = (await adminAgent(t)).agent;
  });
  afterAll(async () => t.close());

  /** A book on pre-order (so published) with every format at the list prices. */
  async function publish(id: number, releaseAt = '2027-03-05T09:00:00.000Z') {
    const res = await admin.put(`/api/admin/books/${id}/pre-order`, { releaseAt, prices: { ...DEFAULT_PRICES } });
    expect(res.statusCode).toBe(200);
  }

  it('the admin API takes a series, a number in it and a web address, and checks them', async () => {
    const created = await admin.post('/api/admin/books', novel('The Salt Road', { series: ' The Harrow Novels ', seriesNumber: 2 }));
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ title: 'The Salt Road', slug: 'the-salt-road', series: 'The Harrow Novels', seriesNumber: 2 });

    // Another book of the same title gets the next free address; a chosen one is kept.
    expect((await admin.post('/api/admin/books', novel('The Salt Road'))).json()).toMatchObject({ slug: 'the-salt-road-2', series: null, seriesNumber: null });
    expect((await admin.post('/api/admin/books', novel('Tides', { slug: 'tides-a-novella', series: 'The Harrow Novels', seriesNumber: '3' }))).json()).toMatchObject({
      slug: 'tides-a-novella',
      seriesNumber: 3,
    });

    const refusals: [Record<string, unknown>, number, string][] = [
      [{ seriesNumber: 2 }, 400, 'Give the series this is number 2 of'],
      [{ series: 'S', seriesNumber: 0 }, 400, 'Number in series must be a whole number from 1 to 999'],
      [{ series: 'S', seriesNumber: 1000 }, 400, 'Number in series must be a whole number from 1 to 999'],
      [{ series: 'S', seriesNumber: 1.5 }, 400, 'Number in series must be a whole number from 1 to 999'],
      [{ series: 'S', seriesNumber: 'two' }, 400, 'Number in series must be a whole number from 1 to 999'],
      [{ series: 'x'.repeat(121) }, 400, 'Series must be at most 120 characters'],
      [{ slug: 'Not A Slug' }, 400, 'Web address may contain lower-case letters, numbers and dashes'],
      [{ slug: 'tides-a-novella' }, 409, 'Another book already has this web address'],
    ];
    const before = (await t.app.inject({ url: '/api/books' })).json().length;
    for (const [fields, status, message] of refusals) {
      const res = await admin.post('/api/admin/books', novel('Refused', fields));
      expect(res.statusCode, JSON.stringify(fields)).toBe(status);
      expect(JSON.stringify(res.json())).toContain(message);
    }
    expect((await t.app.inject({ url: '/api/books' })).json()).toHaveLength(before);

    // An edit that leaves the series drops its number; one that leaves the fields out keeps them.
    const id = created.json().id as number;
    const kept = await admin.put(`/api/admin/books/${id}`, novel('The Salt Road'));
    expect(kept.json()).toMatchObject({ series: 'The Harrow Novels', seriesNumber: 2, slug: 'the-salt-road' });
    const left = await admin.put(`/api/admin/books/${id}`, novel('The Salt Road', { series: '' }));
    expect(left.json()).toMatchObject({ series: null, seriesNumber: null });
    const back = await admin.put(`/api/admin/books/${id}`, novel('The Salt Road', { series: 'The Harrow Novels', seriesNumber: 2, slug: 'salt-road' }));
    expect(back.json()).toMatchObject({ series: 'The Harrow Novels', seriesNumber: 2, slug: 'salt-road' });
  });

  it('lists only published books, the featured one first, then each series in order, with formats and prices', async () => {
    const before = (await t.app.inject({ url: '/api/catalogue' })).json();
    expect(before.books.map((b: { title: string }) => b.title)).toEqual(['What We Owe the Dead']);
    const site = (await t.app.inject({ url: '/api/site' })).json();
    expect(site.publishedBooks).toBe(1);

    const all = (await t.app.inject({ url: '/api/books' })).json() as Array<{ id: number; slug: string }>;
    await publish(all.find((b) => b.slug === 'tides-a-novella')!.id);
    await publish(all.find((b) => b.slug === 'salt-road')!.id, '2026-01-10T09:00:00.000Z');
    const res = await t.app.inject({ url: '/api/catalogue' });
    expect(res.statusCode).toBe(200);
    const { books } = res.json();
    expect(books.map((b: { slug: string }) => b.slug)).toEqual(['what-we-owe-the-dead', 'salt-road', 'tides-a-novella']);
    expect(books[1]).toMatchObject({ title: 'The Salt Road', series: 'The Harrow Novels', seriesNumber: 2, releaseAt: '2026-01-10T09:00:00.000Z' });
    expect(books[1].formats.map((f: { id: string; price: number; displayPrice: string }) => [f.id, f.price, f.displayPrice])).toEqual(
      (['hardcover', 'paperback', 'ebook', 'audiobook'] as const).map((id) => [id, DEFAULT_PRICES[id], formatPrice(DEFAULT_PRICES[id])]),
    );
    expect((await t.app.inject({ url: '/api/catalogue/the-salt-road-2' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/catalogue/salt-road/formats' })).json()).toMatchObject({ book: { title: 'The Salt Road' }, formats: books[1].formats });
  });

  it('/books is drawn by the server with every published book, series and prices, and the data it hydrates from', async () => {
    const res = await t.app.inject({ url: '/books' });
    expect(res.statusCode).toBe(200);
    const words = text(rootOf(res.body));
    expect(words).toContain('Books');
    for (const title of ['What We Owe the Dead', 'The Salt Road', 'Tides']) expect(words).toContain(title);
    expect(words).toContain('Book 2 of The Harrow Novels');
    expect(words).toContain('Book 3 of The Harrow Novels');
    expect(words).toContain(`Hardcover ${formatPrice(DEFAULT_PRICES.hardcover)}`);
    expect(words).not.toContain('The Salt Road 2');
    expect(rootOf(res.body)).toContain('href="/books/salt-road"');
    const entries = initialData(res.body);
    expect(entries.map((e) => e.key)).toEqual([['/api/catalogue']]);
    expect(entries[0].data).toEqual((await t.app.inject({ url: '/api/catalogue' })).json());
    expect(res.body).toContain('<link rel="canonical" href="http://localhost:3000/books"');
    const [list] = jsonLdOf(res.body);
    expect(list).toMatchObject({ '@type': 'ItemList' });
    expect((list.itemListElement as unknown[]).length).toBe(3);
  });

  it('/books/{slug} is the book with its purchase section and a JSON-LD Book with an Offer per format', async () => {
    const res = await t.app.inject({ url: '/books/salt-road' });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    const words = text(root);
    expect(root).toMatch(/<h1 id="book-title"[^>]*>The Salt Road<\/h1>/);
    expect(words).toContain('Book 2 of The Harrow Novels');
    expect(words).toContain('The first paragraph of The Salt Road, long enough.');
    expect(words).toContain('Choose Your Format');
    for (const price of Object.values(DEFAULT_PRICES)) expect(words).toContain(formatPrice(price));
    const entries = initialData(res.body);
    expect(entries.map((e) => e.key)).toEqual([['/api/catalogue', 'salt-road'], ['/api/catalogue', 'salt-road', 'formats']]);
    expect(entries[0].data).toEqual((await t.app.inject({ url: '/api/catalogue/salt-road' })).json());
    expect(entries[1].data).toEqual((await t.app.inject({ url: '/api/catalogue/salt-road/formats' })).json());

    const ld = jsonLdOf(res.body);
    expect(ld).toHaveLength(1);
    const book = ld[0];
    expect(book).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Book',
      name: 'The Salt Road',
      url: 'http://localhost:3000/books/salt-road',
      isPartOf: { '@type': 'BookSeries', name: 'The Harrow Novels' },
      position: 2,
      author: { '@type': 'Person', name: 'Callum Reyes' },
    });
    const offers = book.offers as Array<Record<string, string>>;
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency, o['@type']])).toEqual([
      ['Hardcover', '24.99', 'GBP', 'Offer'],
      ['Paperback', '16.99', 'GBP', 'Offer'],
      ['E-Book', '9.99', 'GBP', 'Offer'],
      ['Audiobook', '14.99', 'GBP', 'Offer'],
    ].map(([name, price, currency, type]) => [expect.stringContaining(name.split('-')[0]), price, currency, type]));
    // Out already (its release date has passed): in stock; a book still to come is a pre-order.
    expect(offers.every((o) => o.availability === 'https://schema.org/InStock')).toBe(true);
    const tides = jsonLdOf((await t.app.inject({ url: '/books/tides-a-novella' })).body)[0];
    expect((tides.offers as Array<Record<string, string>>)[0]).toMatchObject({ availability: 'https://schema.org/PreOrder', availabilityStarts: '2027-03-05T09:00:00.000Z' });
  });

  it('a book that is not published, or no book at all, is a real 404 page', async () => {
    for (const path of ['/books/the-salt-road-2', '/books/no-such-book', '/books/What-We-Owe-the-Dead']) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(404);
      expect(text(rootOf(res.body))).toMatch(/not found|Page Not Found|404/i);
      expect(jsonLdOf(res.body)).toEqual([]);
    }
  });

  it('the home page links to the catalogue only once more than two books are published', async () => {
    const books = (await t.app.inject({ url: '/api/catalogue' })).json().books as Array<{ id: number }>;
    expect(books).toHaveLength(3);
    expect((await t.app.inject({ url: '/api/site' })).json().publishedBooks).toBe(3);
    const three = text(rootOf((await t.app.inject({ url: '/' })).body));
    expect(three).toContain('Browse all 3 books');

    // Taking one off pre-order leaves two published: no link.
    const res = await admin.put(`/api/admin/books/${books[2].id}/pre-order`, { releaseAt: null, prices: { ...DEFAULT_PRICES } });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/site' })).json().publishedBooks).toBe(2);
    const two = await t.app.inject({ url: '/' });
    expect(text(rootOf(two.body))).not.toContain('Browse all');
    expect(text(rootOf(two.body))).toContain('What We Owe the Dead');
    expect((await t.app.inject({ url: `/books/tides-a-novella` })).statusCode).toBe(404);
  });

  it('the sitemap lists the catalogue and each published book', async () => {
    const xml = (await t.app.inject({ url: '/sitemap.xml' })).body;
    expect(xml).toContain('<loc>http://localhost:3000/books</loc>');
    expect(xml).toContain('<loc>http://localhost:3000/books/what-we-owe-the-dead</loc>');
    expect(xml).toContain('<loc>http://localhost:3000/books/salt-road</loc>');
    expect(xml).not.toContain('tides-a-novella');
    expect(xml).not.toContain('the-salt-road-2');
  });
});
