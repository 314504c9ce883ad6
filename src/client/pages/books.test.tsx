import { screen, within } from '@testing-library/react';
import type { CatalogueBook } from '@shared/schemas/catalogue';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import BooksPage from './books';

const format = (id: 'hardcover' | 'ebook', title: string, price: number) => ({
  id,
  title,
  price,
  currency: 'GBP',
  displayPrice: `£${(price / 100).toFixed(2)}`,
  features: [],
  buttonText: `Buy ${title}`,
});

const book = (over: Partial<CatalogueBook> & { id: number; slug: string; title: string }): CatalogueBook => ({
  coverImage: '/images/covers/x.svg',
  tagline: 'A tagline',
  series: null,
  seriesNumber: null,
  yearPublished: 2026,
  publisher: 'Harrow & Vane',
  featured: false,
  releaseAt: null,
  formats: [format('hardcover', 'Hardcover', 2499), format('ebook', 'E-Book', 999)],
  ...over,
});

describe('/books', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each book with its place in its series, its formats and prices, a pre-order date, and a link to its page', async () => {
    mockFetch({
      '/api/catalogue': () =>
        json({
          books: [
            book({ id: 1, slug: 'what-we-owe-the-dead', title: 'What We Owe the Dead', featured: true }),
            book({ id: 2, slug: 'tides', title: 'Tides', series: 'The Harrow Novels', seriesNumber: 3, releaseAt: '2099-03-05T09:00:00.000Z', formats: [] }),
          ],
        }),
    });
    renderWithRouter([{ path: '/books', element: <BooksPage /> }], '/books');
    const first = within(await screen.findByRole('article', { name: 'What We Owe the Dead' }));
    expect(first.getByRole('link', { name: 'What We Owe the Dead' })).toHaveAttribute('href', '/books/what-we-owe-the-dead');
    expect(first.getByRole('list', { name: 'Formats of What We Owe the Dead' }).textContent).toBe('Hardcover £24.99E-Book £9.99');
    expect(first.queryByText(/Book \d of/)).not.toBeInTheDocument();
    const tides = within(screen.getByRole('article', { name: 'Tides' }));
    expect(tides.getByText('Book 3 of The Harrow Novels')).toBeInTheDocument();
    expect(tides.getByText('Pre-order, available on 5 March 2099')).toBeInTheDocument();
    expect(tides.getByText('Not on sale yet')).toBeInTheDocument();
  });

  it('keeps one outline: the page is h1, each book and the bundles are h2, each bundle h3 under them', async () => {
    mockFetch({
      '/api/catalogue': () => json({ books: [book({ id: 1, slug: 'what-we-owe-the-dead', title: 'What We Owe the Dead' }), book({ id: 2, slug: 'tides', title: 'Tides' })] }),
      '/api/users/check-auth': () => json({ isAuthenticated: false, user: null }),
      '/api/bundles': () =>
        json({
          bundles: [
            {
              id: 3,
              name: 'Read and listen',
              price: 1999,
              displayPrice: '£19.99',
              items: [
                { bookId: 1, title: 'What We Owe the Dead', format: 'ebook', formatLabel: 'E-Book', listPrice: 999, owned: false },
                { bookId: 1, title: 'What We Owe the Dead', format: 'audiobook', formatLabel: 'Audiobook', listPrice: 1499, owned: false },
              ],
              yourPrice: 1999,
              displayYourPrice: '£19.99',
              completeYourSet: null,
              ownedWhole: false,
              addOffer: null,
            },
          ],
        }),
    });
    renderWithRouter([{ path: '/books', element: <BooksPage /> }], '/books');
    await screen.findByRole('heading', { name: 'Read and listen' });
    const outline = screen.getAllByRole('heading').map((h) => `${h.tagName} ${h.textContent}`);
    expect(outline).toEqual(['H1 Books', 'H2 What We Owe the Dead', 'H2 Tides', 'H2 Bundles', 'H3 Read and listen']);
    expect(screen.getByRole('region', { name: 'Bundles' })).toBeInTheDocument();
  });

  it('says so when no book is on sale', async () => {
    mockFetch({ '/api/catalogue': () => json({ books: [] }) });
    renderWithRouter([{ path: '/books', element: <BooksPage /> }], '/books');
    expect(await screen.findByText('No books are on sale at the moment')).toBeInTheDocument();
  });
});
