import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@shared/constants';
import type { MyFormatsResponse, StoreFormatsResponse } from '@shared/schemas/checkout';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import { PurchaseSection } from './purchase-section';

const FORMATS: StoreFormatsResponse = {
  book: { id: 1, title: 'What We Owe the Dead' },
  formats: [
    { id: 'hardcover', title: 'Hardcover', price: 2499, currency: 'GBP', displayPrice: '£24.99', features: ['Signed bookplate'], buttonText: 'Buy Hardcover' },
    { id: 'paperback', title: 'Paperback', price: 1699, currency: 'GBP', displayPrice: '£16.99', features: ['Book-club questions'], buttonText: 'Buy Paperback' },
    { id: 'ebook', title: 'E-Book', price: 999, currency: 'GBP', displayPrice: '£9.99', features: ['Instant download'], buttonText: 'Buy E-Book' },
    { id: 'audiobook', title: 'Audiobook', price: 1499, currency: 'GBP', displayPrice: '£14.99', features: ['Unabridged'], buttonText: 'Buy Audiobook' },
  ],
};
const SIGNED_IN = { isAuthenticated: true, user: { id: 7, role: 'user' } };
const SIGNED_OUT = { isAuthenticated: false, user: null };

function renderSection(auth: () => Response | Promise<Response>, formats: StoreFormatsResponse = FORMATS, mine?: MyFormatsResponse) {
  mockFetch({
    '/api/store/formats': () => json(formats),
    '/api/users/check-auth': auth,
    ...(mine ? { '/api/store/my-formats': () => json(mine) } : {}),
  });
  return renderWithRouter([
    {
      element: <><Outlet /><Toaster /></>,
      children: [
        { path: '/', element: <PurchaseSection /> },
        { path: '/login', element: <p>login page</p> },
        { path: '/checkout', element: <p>checkout page</p> },
      ],
    },
  ]);
}

describe('PurchaseSection', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('shows the four formats with server prices, features and button texts', async () => {
    renderSection(() => json(SIGNED_OUT));
    for (const [title, price, button] of [
      ['Hardcover', '£24.99', 'Buy Hardcover'],
      ['Paperback', '£16.99', 'Buy Paperback'],
      ['E-Book', '£9.99', 'Buy E-Book'],
      ['Audiobook', '£14.99', 'Buy Audiobook'],
    ]) {
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      expect(screen.getByText(price)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: button })).toBeEnabled();
    }
    expect(screen.getAllByText('Instant download').length).toBeGreaterThan(0);
    // Only the digital formats can be given.
    expect(screen.getAllByRole('button', { name: 'Buy as a gift' })).toHaveLength(2);
    expect(screen.getByText(/10 or more copies/)).toBeInTheDocument();
    expect(document.getElementById('purchase')).not.toBeNull();
  });

  it('"Add to basket" on every format card: a visitor\'s line is priced by the server and kept in the browser', async () => {
    const fetch = mockFetch({
      '/api/store/formats': () => json(FORMATS),
      '/api/users/check-auth': () => json(SIGNED_OUT),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket/preview': () =>
        json({ lines: [], count: 1, currency: 'GBP', subtotal: 2499, displaySubtotal: '£24.99', discount: 0, displayDiscount: '£0.00', discountCode: null, total: 2499, displayTotal: '£24.99' }),
    });
    window.localStorage.removeItem('basket.visitor');
    renderWithRouter([{ element: <><Outlet /><Toaster /></>, children: [{ path: '/', element: <PurchaseSection /> }] }]);
    await screen.findByRole('heading', { name: 'Hardcover' });
    expect(screen.getAllByRole('button', { name: 'Add to basket' })).toHaveLength(4);
    fireEvent.click(screen.getAllByRole('button', { name: 'Add to basket' })[0]);
    expect(await screen.findByText('Added to your basket')).toBeInTheDocument();
    const preview = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/basket/preview'));
    expect(JSON.parse(String(preview?.[1]?.body))).toEqual({ items: [{ bookId: 1, format: 'hardcover', quantity: 1 }] });
    expect(JSON.parse(window.localStorage.getItem('basket.visitor')!)).toEqual([{ bookId: 1, format: 'hardcover', quantity: 1 }]);
    expect(window.localStorage.getItem('basket.count')).toBe('1');
  });

  it('signed out: "Please log in", the intent is saved and the visitor goes to /login?returnTo=purchase', async () => {
    const { router } = renderSection(() => json(SIGNED_OUT));
    fireEvent.click(await screen.findByRole('button', { name: 'Buy E-Book' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?returnTo=purchase');
    expect(screen.getByText('Please log in')).toBeInTheDocument();
    const intent = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)!);
    expect(intent).toMatchObject({ format: 'ebook', returnToPurchase: true });
    expect(Math.abs(intent.timestamp - Date.now())).toBeLessThan(5000);
  });

  it('signed out: a discount code typed before Buy is kept in the intent for after the login', async () => {
    renderSection(() => json(SIGNED_OUT));
    fireEvent.change(await screen.findByLabelText('Discount code'), { target: { value: ' LAUNCH20 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy E-Book' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    const intent = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)!);
    expect(intent).toMatchObject({ format: 'ebook', discountCode: 'LAUNCH20' });
  });

  it('while the auth status refreshes the button reads "Processing..." and every format button is disabled', async () => {
    let release: (r: Response) => void = () => {};
    let calls = 0;
    const { router } = renderSection(() => {
      calls += 1;
      // The first check (on mount) answers at once; the refresh on click waits.
      return calls === 1 ? json(SIGNED_IN) : new Promise<Response>((resolve) => (release = resolve));
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Audiobook' }));
    expect(await screen.findByText('Processing...')).toBeInTheDocument();
    const buttons = screen.getAllByRole('button').filter((b) => /^(Buy (Hardcover|Paperback|E-Book|Audiobook)|Processing\.\.\.)$/.test(b.textContent ?? ''));
    expect(buttons).toHaveLength(4);
    for (const button of buttons) expect(button).toBeDisabled();
    // The digital formats' "Buy as a gift" waits too.
    const gifts = screen.getAllByRole('button', { name: 'Buy as a gift' });
    expect(gifts).toHaveLength(2);
    for (const button of gifts) expect(button).toBeDisabled();

    act(() => release(json(SIGNED_IN)));
    expect(await screen.findByText('checkout page')).toBeInTheDocument();
    const params = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(params)).toEqual({
      amount: '1499',
      title: 'What We Owe the Dead',
      format: 'audiobook',
      bookId: '1',
      // One purchase intent: coming back to this address never starts a second payment.
      intent: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('refuses a price that is not above 0 with "Invalid Price"', async () => {
    const formats = { ...FORMATS, formats: FORMATS.formats.map((f) => (f.id === 'ebook' ? { ...f, price: 0 } : f)) };
    const { router } = renderSection(() => json(SIGNED_IN), formats);
    fireEvent.click(await screen.findByRole('button', { name: 'Buy E-Book' }));
    expect(await screen.findByText('Invalid Price')).toBeInTheDocument();
    expect(screen.getByText('Could not determine the price for this format.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy E-Book' })).toBeEnabled());
  });

  it('refuses when there is no user id ("User Error")', async () => {
    renderSection(() => json({ isAuthenticated: true, user: null }));
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Paperback' }));
    expect(await screen.findByText('User Error')).toBeInTheDocument();
    expect(screen.getByText('Could not identify your user account')).toBeInTheDocument();
  });

  it('refuses with "Book not available" when no book is on sale', async () => {
    renderSection(() => json(SIGNED_IN), { ...FORMATS, book: null });
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Hardcover' }));
    expect(await screen.findByText('Book not available')).toBeInTheDocument();
    expect(screen.getByText('The book is currently not available for purchase')).toBeInTheDocument();
  });

  it('shows an error with Try Again when the formats cannot be loaded', async () => {
    mockFetch({ '/api/store/formats': () => new Response('boom', { status: 500 }), '/api/users/check-auth': () => json(SIGNED_OUT) });
    renderWithRouter([{ path: '/', element: <PurchaseSection /> }]);
    expect(await screen.findByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});

describe('PurchaseSection resuming a saved intent', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('a signed-in reader arriving with a fresh intent is taken on to /checkout for that format', async () => {
    window.localStorage.setItem(
      STORAGE_KEYS.purchaseIntent,
      JSON.stringify({ format: 'ebook', returnToPurchase: true, timestamp: Date.now() }),
    );
    mockFetch({
      '/api/store/formats': () => json(FORMATS),
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/books/featured': () => json({ id: 1, title: 'What We Owe the Dead' }),
    });
    const { router } = renderWithRouter([
      {
        element: <><Outlet /><Toaster /></>,
        children: [
          { path: '/', element: <PurchaseSection /> },
          { path: '/checkout', element: <p>checkout page</p> },
        ],
      },
    ]);
    expect(await screen.findByText('Ready to complete your purchase')).toBeInTheDocument();
    expect(screen.getByText('Processing...')).toBeInTheDocument();
    expect(await screen.findByText('checkout page', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('format')).toBe('ebook');
    expect(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)).toBeNull();
  });

  it('print formats say "Includes the ebook" when the book gives it; a discount code is carried to checkout', async () => {
    const withEbook: StoreFormatsResponse = {
      ...FORMATS,
      formats: FORMATS.formats.map((f) => (f.id === 'hardcover' ? { ...f, includesEbook: true } : f.id === 'paperback' ? { ...f, includesEbook: false } : f)),
    };
    const { router } = renderSection(() => json(SIGNED_IN), withEbook);
    await screen.findByRole('heading', { name: 'Hardcover' });
    expect(screen.getAllByText('Includes the ebook')).toHaveLength(1);
    expect(screen.getByText('Includes the ebook').closest('li')).toHaveAttribute('aria-labelledby', 'format-hardcover-title');
    fireEvent.change(screen.getByLabelText('Discount code'), { target: { value: ' LAUNCH20 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy E-Book' }));
    expect(await screen.findByText('checkout page')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('discountCode')).toBe('LAUNCH20');
  });
});

describe('PurchaseSection for a reader who already bought', () => {
  beforeEach(() => act(() => resetToastStore()));

  const mine = (overrides: Partial<Record<'hardcover' | 'paperback' | 'ebook' | 'audiobook', Partial<MyFormatsResponse['formats'][number]>>>) => ({
    bookId: 1,
    formats: (['hardcover', 'paperback', 'ebook', 'audiobook'] as const).map((format) => ({
      format,
      owned: false,
      recentPurchase: null,
      ...overrides[format],
    })),
  });
  const card = (title: string) => screen.getByRole('heading', { name: title }).closest('li')!;

  it('owned digital formats read "In your library" with Read / Listen instead of Buy; the gift stays', async () => {
    renderSection(() => json(SIGNED_IN), FORMATS, mine({ ebook: { owned: true }, audiobook: { owned: true } }));
    const read = await screen.findByRole('link', { name: 'Read the E-Book' }, { timeout: 5000 });
    expect(read).toHaveAttribute('href', '/read/1/ebook');
    expect(read).toHaveTextContent('Read');
    expect(screen.getByRole('link', { name: 'Listen to the Audiobook' })).toHaveAttribute('href', '/listen/1');
    expect(within(card('E-Book')).getAllByText('In your library')).toHaveLength(2);
    expect(within(card('Audiobook')).getAllByText('In your library')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Buy E-Book' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy Audiobook' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Buy as a gift' })).toHaveLength(2);
    // Print is never "owned": it can be bought again.
    expect(screen.getByRole('button', { name: 'Buy Paperback' })).toBeEnabled();
    expect(within(card('Paperback')).queryByText('In your library')).not.toBeInTheDocument();
  });

  it('a print copy bought a moment ago says so, and Buy asks before a second copy', async () => {
    const recentPurchase = { orderReference: 'WWD-ABCDEF1234', purchasedAt: '2026-11-26T13:05:00.000Z', confirmationPath: '/pay/cs_paid' };
    const { router } = renderSection(() => json(SIGNED_IN), FORMATS, mine({ paperback: { recentPurchase } }));
    await screen.findByText('You bought this a moment ago', undefined, { timeout: 5000 });
    const paperback = card('Paperback');
    expect(within(paperback).getByText('WWD-ABCDEF1234')).toBeInTheDocument();
    expect(within(paperback).getByRole('link', { name: 'View order' })).toHaveAttribute('href', '/pay/cs_paid');

    fireEvent.click(screen.getByRole('button', { name: 'Buy Paperback' }));
    const dialog = await screen.findByRole('dialog', { name: 'You bought this a moment ago' });
    expect(dialog).toHaveTextContent(/Your Paperback order WWD-ABCDEF1234 went through at \d\d:\d\d\. Do you want to buy another copy\?/);
    expect(within(dialog).getByRole('link', { name: 'View my order' })).toHaveAttribute('href', '/pay/cs_paid');
    expect(router.state.location.pathname).toBe('/');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Buy another copy' }));
    expect(await screen.findByText('checkout page')).toBeInTheDocument();
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('format')).toBe('paperback');
    expect(params.get('confirmRepeat')).toBe('1');
    expect(params.get('intent')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('the hardcover, not bought a moment ago, goes straight to checkout', async () => {
    const recentPurchase = { orderReference: 'WWD-ABCDEF1234', purchasedAt: '2026-11-26T13:05:00.000Z', confirmationPath: '/pay/cs_paid' };
    const { router } = renderSection(() => json(SIGNED_IN), FORMATS, mine({ paperback: { recentPurchase } }));
    await screen.findByText('You bought this a moment ago', undefined, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Buy Hardcover' }));
    expect(await screen.findByText('checkout page')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('confirmRepeat')).toBeNull();
  });

  it('the e-book card says "Includes the PDF edition" when the book has one', async () => {
    const withPdf: StoreFormatsResponse = { ...FORMATS, formats: FORMATS.formats.map((f) => (f.id === 'ebook' ? { ...f, includesPdf: true } : f)) };
    renderSection(() => json(SIGNED_OUT), withPdf);
    expect(await screen.findByText('Includes the PDF edition', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Includes the PDF edition').closest('li')).toHaveAttribute('aria-labelledby', 'format-ebook-title');
  });
});
