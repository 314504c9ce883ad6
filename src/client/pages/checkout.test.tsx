import { act, fireEvent, screen } from '@testing-library/react';
import { STORAGE_KEYS } from '@shared/constants';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import CheckoutPage from './checkout';

const INTENT = '0123456789abcdef0123456789abcdef';

function renderCheckout(path: string) {
  return renderWithRouter(
    [
      {
        element: <><Outlet /><Toaster /></>,
        children: [
          { path: '/', element: <p>home page</p> },
          { path: '/checkout', element: <CheckoutPage /> },
          { path: '/pay/:id', element: <p>payment page</p> },
          { path: '/login', element: <p>login page</p> },
        ],
      },
    ],
    path,
  );
}

describe('/checkout', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('without amount: a plain "choose a format" message and back to /', async () => {
    const fetch = mockFetch({});
    renderCheckout('/checkout?format=ebook&bookId=1');
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(screen.getByText("Choose a format on the book's page to buy it.")).toBeInTheDocument();
    expect(screen.queryByText(/parameter/i)).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalledWith('/api/checkout', expect.anything());
  });

  it('an unknown format: "Invalid format specified", no checkout call', async () => {
    const fetch = mockFetch({});
    renderCheckout('/checkout?amount=999&format=scroll&bookId=1');
    expect((await screen.findAllByText('Invalid format specified')).length).toBeGreaterThan(0);
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/api/checkout'))).toBe(false);
  });

  it('an amount but no format: "Invalid format specified" at once, not an endless spinner', async () => {
    const fetch = mockFetch({});
    renderCheckout('/checkout?amount=2499&title=What%20We%20Owe%20the%20Dead&bookId=1');
    expect((await screen.findAllByText('Invalid format specified')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Redirecting to secure payment...')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to formats' })).toHaveAttribute('href', '/#purchase');
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/api/checkout'))).toBe(false);
  });

  it('a format but no bookId: buys the book on sale', async () => {
    const bodies: unknown[] = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/books/featured': () => json({ id: 3, title: 'What We Owe the Dead' }),
      '/api/checkout': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json({ url: '/pay/cs_9' });
      },
    });
    renderCheckout('/checkout?amount=999&format=ebook');
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    // An address without an intent is given one before the checkout starts.
    expect(bodies).toEqual([{ bookId: 3, format: 'ebook', idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
  });

  it('a format but no bookId and no book on sale: "Book not available"', async () => {
    mockFetch({ '/api/books/featured': () => json({ message: 'No featured book' }, 404) });
    renderCheckout('/checkout?amount=999&format=ebook');
    expect((await screen.findAllByText('The book is currently not available for purchase')).length).toBeGreaterThan(0);
    expect(screen.getByText('Book not available')).toBeInTheDocument();
  });

  it('posts only bookId and format (never the amount) and goes to the payment page it answers', async () => {
    const bodies: unknown[] = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json({ url: '/pay/cs_123' });
      },
    });
    const { router } = renderCheckout('/');
    act(() => router.navigate(`/checkout?amount=1&title=What%20We%20Owe%20the%20Dead&format=ebook&bookId=4&intent=${INTENT}`));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(bodies).toEqual([{ bookId: 4, format: 'ebook', idempotencyKey: INTENT }]);
    // The payment page took /checkout's place: Back from it goes home, not to a /checkout that pays again.
    act(() => router.back());
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
  });

  it('signed out: keeps the choice and goes to log in', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout': () => json({ message: 'Authentication required' }, 401),
    });
    renderCheckout('/checkout?amount=999&format=audiobook&bookId=4');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.purchaseIntent)!).format).toBe('audiobook');
  });

  it('a refused checkout shows the server message', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout': () => json({ message: 'The book is currently not available for purchase in this format' }, 409),
    });
    renderCheckout('/checkout?amount=999&format=ebook&bookId=4');
    expect((await screen.findAllByText('The book is currently not available for purchase in this format')).length).toBeGreaterThan(0);
    expect(screen.getByText('Purchase Failed')).toBeInTheDocument();
  });

  it('with a discount code: shows the struck list price and the price to pay, then checks out with the code', async () => {
    const bodies: unknown[] = [];
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout/quote': () => json({ amount: 799, displayPrice: '£7.99', originalAmount: 999, displayOriginalPrice: '£9.99', discountCode: 'LAUNCH' }),
      '/api/checkout': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json({ url: '/pay/cs_5' });
      },
    });
    renderCheckout('/checkout?amount=999&title=What%20We%20Owe%20the%20Dead&format=ebook&bookId=4&discountCode=launch');
    expect(await screen.findByTestId('original-price')).toHaveTextContent('£9.99');
    expect(screen.getByTestId('original-price').tagName).toBe('S');
    expect(screen.getByTestId('price-to-pay')).toHaveTextContent('£7.99');
    expect(String(fetch.mock.calls.find(([url]) => String(url).includes('/quote'))![0])).toContain('discountCode=launch');
    // Nothing is created until the reader continues.
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(bodies).toEqual([{ bookId: 4, format: 'ebook', discountCode: 'launch', idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
  });

  it('a refused code says why and lets the reader go on without it', async () => {
    const bodies: unknown[] = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout/quote': () => json({ message: 'This discount code has expired', code: 'DISCOUNT_REFUSED' }, 400),
      '/api/checkout': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json({ url: '/pay/cs_6' });
      },
    });
    renderCheckout('/checkout?amount=999&format=ebook&bookId=4&discountCode=OLD');
    expect(await screen.findByText('This discount code has expired')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Continue without the code' }));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(bodies).toEqual([{ bookId: 4, format: 'ebook', idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
  });

  it('back at an address already paid for: "You bought this a moment ago" and its confirmation, nothing new', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout': () => json({ url: '/pay/cs_paid', completed: true }),
    });
    const { router } = renderCheckout(`/checkout?amount=1699&format=paperback&bookId=4&intent=${INTENT}`);
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pay/cs_paid');
    expect(screen.getByText('You bought this a moment ago')).toBeInTheDocument();
    expect(screen.getByText('Here is your order. Nothing new was charged.')).toBeInTheDocument();
  });

  it('an owned digital format: "Already in your library" with the way to the library, no payment', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout': () => json({ message: 'Already in your library', code: 'ALREADY_OWNED' }, 409),
    });
    renderCheckout(`/checkout?amount=999&title=What%20We%20Owe%20the%20Dead&format=ebook&bookId=4&intent=${INTENT}`);
    expect(await screen.findByRole('heading', { name: 'Already in your library' })).toBeInTheDocument();
    expect(screen.getByText(/You already own the E-Book of What We Owe the Dead/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Library' })).toHaveAttribute('href', '/profile#library');
    expect(screen.getByRole('link', { name: 'Back to formats' })).toHaveAttribute('href', '/#purchase');
    expect(screen.queryByText('Purchase Failed')).not.toBeInTheDocument();
  });

  it('a print copy bought a moment ago: asks, and "Buy another copy" confirms with the same intent', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/checkout': (_url, init) => {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        bodies.push(body);
        return body.confirmRepeat
          ? json({ url: '/pay/cs_second' })
          : json({ message: 'You bought this a moment ago', code: 'RECENT_PURCHASE' }, 409);
      },
    });
    renderCheckout(`/checkout?amount=1699&title=What%20We%20Owe%20the%20Dead&format=paperback&bookId=4&intent=${INTENT}`);
    expect(await screen.findByRole('heading', { name: 'You bought this a moment ago' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View my orders' })).toHaveAttribute('href', '/profile#library');
    fireEvent.click(screen.getByRole('button', { name: 'Buy another copy' }));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(bodies).toEqual([
      { bookId: 4, format: 'paperback', idempotencyKey: INTENT },
      { bookId: 4, format: 'paperback', idempotencyKey: INTENT, confirmRepeat: true },
    ]);
  });
});
