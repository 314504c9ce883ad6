import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Bundle } from '@shared/schemas/bundles';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import { BundleCards } from './bundle-cards';

const SIGNED_IN = { isAuthenticated: true, user: { id: 7, role: 'user' } };
const part = (bookId: number, title: string, format: 'ebook' | 'audiobook' | 'hardcover', formatLabel: string, listPrice: number | null, owned = false) => ({
  bookId,
  title,
  format,
  formatLabel,
  listPrice,
  owned,
});

/** "Read and listen": the e-book (£9.99) and the audiobook (£14.99) for £19.99, as a visitor sees it. */
const READ_AND_LISTEN: Bundle = {
  id: 3,
  name: 'Read and listen',
  price: 1999,
  displayPrice: '£19.99',
  items: [part(1, 'What We Owe the Dead', 'ebook', 'E-Book', 999), part(1, 'What We Owe the Dead', 'audiobook', 'Audiobook', 1499)],
  yourPrice: 1999,
  displayYourPrice: '£19.99',
  completeYourSet: null,
  ownedWhole: false,
  addOffer: null,
};

/** The same bundle for a reader who paid £9.99 for the e-book. */
const OWNS_EBOOK: Bundle = {
  ...READ_AND_LISTEN,
  items: [{ ...READ_AND_LISTEN.items[0], owned: true }, READ_AND_LISTEN.items[1]],
  yourPrice: 1000,
  displayYourPrice: '£10.00',
  completeYourSet: 'Complete your set: £10.00',
  addOffer: 'Add the audiobook for £10.00',
};

const OWNS_BOTH: Bundle = {
  ...READ_AND_LISTEN,
  items: READ_AND_LISTEN.items.map((i) => ({ ...i, owned: true })),
  yourPrice: 30,
  displayYourPrice: '£0.30',
  completeYourSet: null,
  ownedWhole: true,
};

/** Book 2 in hardcover with the first book's e-book: another book's bundle. */
const SERIES: Bundle = {
  ...READ_AND_LISTEN,
  id: 4,
  name: 'The Whitby books',
  price: 2999,
  displayPrice: '£29.99',
  items: [part(1, 'What We Owe the Dead', 'ebook', 'E-Book', 999), part(2, 'The Drowned Bell', 'hardcover', 'Hardcover', null)],
  yourPrice: 2999,
  displayYourPrice: '£29.99',
};

function renderCards(bundles: Bundle[], bookId?: number, addItem?: (init: RequestInit) => Response | Promise<Response>) {
  const fetch = mockFetch({
    '/api/bundles': () => json({ bundles }),
    '/api/users/check-auth': () => json(SIGNED_IN),
    '/api/csrf-token': () => json({ csrfToken: 't' }),
    ...(addItem ? { '/api/basket/items': (_url: string, init: RequestInit) => addItem(init) } : {}),
  });
  const { queryClient } = renderWithRouter([{ element: <><Outlet /><Toaster /></>, children: [{ path: '/', element: <BundleCards bookId={bookId} /> }] }]);
  return { fetch, queryClient };
}

const card = async (name: string) => within(await screen.findByRole('listitem', { name }));

describe('BundleCards', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('shows a bundle with its formats, their own prices, the bundle price and what it saves', async () => {
    renderCards([READ_AND_LISTEN]);
    const c = await card('Read and listen');
    // Under the purchase section's h2 and beside its format cards' h3.
    expect(screen.getByRole('heading', { name: 'Bundles', level: 3 })).toBeInTheDocument();
    expect(c.getByRole('heading', { name: 'Read and listen', level: 4 })).toBeInTheDocument();
    const parts = within(c.getByRole('list', { name: 'In Read and listen' })).getAllByRole('listitem');
    expect(parts.map((p) => p.textContent)).toEqual(['What We Owe the Dead · E-Book (£9.99)', 'What We Owe the Dead · Audiobook (£14.99)']);
    expect(c.getByText('£19.99')).toBeInTheDocument();
    // £9.99 + £14.99 bought apart.
    expect(c.getByText('Save £4.99')).toBeInTheDocument();
    expect(c.queryByText(/Complete your set/)).toBeNull();
    expect(c.getByRole('button', { name: 'Add Read and listen to basket' })).toHaveTextContent('Add to basket');
    expect(c.getByRole('button', { name: 'Add Read and listen to basket' })).toBeEnabled();
  });

  it('to a reader who owns the e-book: "Complete your set: £10.00", the bundle price struck out and the saving on the audiobook alone', async () => {
    renderCards([OWNS_EBOOK]);
    const c = await card('Read and listen');
    expect(c.getByText('Complete your set: £10.00')).toBeInTheDocument();
    expect(c.getByText('£10.00')).toBeInTheDocument();
    expect(c.getByText('£19.99').tagName).toBe('S');
    expect(c.getByText('Bundle price')).toHaveClass('sr-only');
    // The audiobook costs £14.99 alone: the reader saves £4.99, not the price of the e-book they have.
    expect(c.getByText('Save £4.99')).toBeInTheDocument();
    const parts = within(c.getByRole('list', { name: 'In Read and listen' })).getAllByRole('listitem');
    expect(parts[0]).toHaveTextContent('What We Owe the Dead · E-Book (£9.99)In your library');
    expect(parts[1]).not.toHaveTextContent('In your library');
    expect(c.getByRole('button', { name: 'Add Read and listen to basket' })).toBeEnabled();
  });

  it('to a reader who owns every format: no price to pay, no saving and no button', async () => {
    renderCards([OWNS_BOTH]);
    const c = await card('Read and listen');
    expect(c.getByText('Every format of this bundle is in your library')).toBeInTheDocument();
    expect(c.queryByRole('button')).toBeNull();
    expect(c.queryByText(/^Save /)).toBeNull();
    expect(c.queryByText(/Complete your set/)).toBeNull();
  });

  it('no saving is claimed when a format has no price of its own', async () => {
    renderCards([SERIES]);
    const c = await card('The Whitby books');
    expect(c.getByText('£29.99')).toBeInTheDocument();
    expect(c.queryByText(/^Save /)).toBeNull();
    expect(within(c.getByRole('list', { name: 'In The Whitby books' })).getAllByRole('listitem')[1].textContent).toBe('The Drowned Bell · Hardcover');
  });

  it("a book's purchase section shows only the bundles holding one of its formats", async () => {
    renderCards([READ_AND_LISTEN, SERIES], 2);
    expect(await screen.findByRole('listitem', { name: 'The Whitby books' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Read and listen' })).toBeNull();
  });

  it('renders nothing when no bundle is on sale', async () => {
    const { queryClient } = renderCards([]);
    // Answered, and still nothing.
    await waitFor(() => expect(queryClient.getQueryState(['/api/bundles'])?.status).toBe('success'));
    expect(screen.queryByRole('heading', { name: 'Bundles' })).toBeNull();
  });

  it('"Add to basket" sends the bundle as one line; while it is sent every bundle button waits; the toast gives the count', async () => {
    let release: (r: Response) => void = () => {};
    const { fetch } = renderCards([OWNS_EBOOK, SERIES], undefined, () => new Promise<Response>((resolve) => (release = resolve)));
    const c = await card('Read and listen');
    fireEvent.click(c.getByRole('button', { name: 'Add Read and listen to basket' }));
    await vi.waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/basket/items'))).toBe(true));
    expect(c.getByRole('button', { name: 'Add Read and listen to basket' })).toBeDisabled();
    expect(c.getByRole('button', { name: 'Add Read and listen to basket' })).toHaveAttribute('aria-busy', 'true');
    const other = screen.getByRole('button', { name: 'Add The Whitby books to basket' });
    expect(other).toBeDisabled();
    expect(other).not.toHaveAttribute('aria-busy');
    const sent = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/basket/items'));
    expect(sent?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ bundleId: 3 });

    await act(async () => release(json({ lines: [], count: 2 })));
    expect(await screen.findByText('Added to your basket')).toBeInTheDocument();
    expect(screen.getByText('Read and listen. Items in your basket: 2.')).toBeInTheDocument();
    expect(c.getByRole('button', { name: 'Add Read and listen to basket' })).toBeEnabled();
    expect(window.localStorage.getItem('basket.count')).toBe('2');
  });

  it("a refused bundle says why, in the server's words", async () => {
    renderCards([OWNS_EBOOK], undefined, () =>
      json({ code: 'ALREADY_OWNED', message: 'Every format of this bundle is already in your library' }, 409),
    );
    fireEvent.click((await card('Read and listen')).getByRole('button', { name: 'Add Read and listen to basket' }));
    expect(await screen.findByText('Not added to your basket')).toBeInTheDocument();
    expect(screen.getByText('Every format of this bundle is already in your library')).toBeInTheDocument();
  });
});
