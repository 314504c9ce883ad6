import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Basket } from '@shared/schemas/basket';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import BasketPage from './basket';

const line = (over: Partial<Basket['lines'][number]>): Basket['lines'][number] => ({
  id: 1,
  bookId: 1,
  title: 'What We Owe the Dead',
  coverImage: '/c.svg',
  format: 'hardcover',
  formatLabel: 'Hardcover',
  bundle: null,
  digital: false,
  quantity: 2,
  unitPrice: 2499,
  displayUnitPrice: '£24.99',
  lineTotal: 4998,
  displayLineTotal: '£49.98',
  problem: null,
  ...over,
});
const BASKET: Basket = {
  lines: [line({}), line({ id: 2, format: 'audiobook', formatLabel: 'Audiobook', digital: true, quantity: 1, unitPrice: 1499, displayUnitPrice: '£14.99', lineTotal: 1499, displayLineTotal: '£14.99' })],
  count: 3,
  currency: 'GBP',
  subtotal: 6497,
  displaySubtotal: '£64.97',
  discount: 0,
  displayDiscount: '£0.00',
  discountCode: null,
  shipping: null,
  net: 6497,
  displayNet: '£64.97',
  tax: 0,
  displayTax: '£0.00',
  pricesIncludeTax: true,
  taxAtPayment: false,
  total: 6497,
  displayTotal: '£64.97',
};
const COUNTRIES = [
  { code: 'FR', name: 'France' },
  { code: 'GB', name: 'United Kingdom' },
];
const NO_DESTINATION: Basket = {
  ...BASKET,
  shipping: { countries: COUNTRIES, country: null, description: null, amount: 0, displayAmount: '£0.00', free: false, problem: null },
  net: 6247,
  displayNet: '£62.47',
  tax: 250,
  displayTax: '£2.50',
};
// 2 x £24.99 + £14.99, shipping £5.00 to the UK, £2.50 of tax inside the prices.
const TO_UK: Basket = {
  ...NO_DESTINATION,
  shipping: { ...NO_DESTINATION.shipping!, country: 'GB', description: 'Shipping to United Kingdom', amount: 500, displayAmount: '£5.00' },
  net: 6747,
  displayNet: '£67.47',
  total: 6997,
  displayTotal: '£69.97',
};
const SIGNED_IN = { isAuthenticated: true, user: { id: 7, role: 'user' } };
const SIGNED_OUT = { isAuthenticated: false, user: null };

function renderBasket() {
  return renderWithRouter(
    [
      {
        element: <><Outlet /><Toaster /></>,
        children: [
          { path: '/basket', element: <BasketPage /> },
          { path: '/pay/:id', element: <p>payment page</p> },
          { path: '/login', element: <p>login page</p> },
        ],
      },
    ],
    '/basket',
  );
}

describe('/basket', () => {
  beforeEach(() => {
    act(() => resetToastStore());
    window.localStorage.clear();
  });

  it('asks where the printed books go, then shows the shipping line, the tax inside the prices and the total, and checks out to that country', async () => {
    const fetch = mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket': (url) => json(url.endsWith('?shippingCountry=GB') ? TO_UK : NO_DESTINATION),
      '/api/checkout/basket': () => json({ url: '/pay/cs_uk' }),
    });
    const { router } = renderBasket();
    const picker = await screen.findByLabelText('Ship printed books to', {}, { timeout: 5000 });
    expect([...(picker as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose a country', 'France', 'United Kingdom']);
    expect(screen.getByTestId('basket-shipping')).toHaveTextContent('ShippingChoose a country');
    expect(screen.getByTestId('basket-tax')).toHaveTextContent('£2.50');
    expect(screen.getByText('Tax included')).toBeInTheDocument();
    expect(screen.getByText('Choose where your printed books go to see the shipping and check out.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeDisabled();

    fireEvent.change(picker, { target: { value: 'GB' } });
    await waitFor(() => expect(screen.getByTestId('basket-shipping')).toHaveTextContent('Shipping to United Kingdom£5.00'));
    expect(screen.getByTestId('basket-net')).toHaveTextContent('£67.47');
    expect(screen.getByTestId('basket-tax')).toHaveTextContent('£2.50');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('£69.97');
    // The choice is remembered for the next visit.
    expect(window.localStorage.getItem('basket.country')).toBe('GB');

    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pay/cs_uk');
    const started = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/checkout/basket'));
    expect(JSON.parse(String(started?.[1]?.body))).toEqual({ shippingCountry: 'GB' });
  });

  it('shows tax added on top as "Tax", and says a Stripe basket works its tax out at payment', async () => {
    const onTop: Basket = { ...TO_UK, pricesIncludeTax: false, net: 6997, displayNet: '£69.97', tax: 1399, displayTax: '£13.99', total: 8396, displayTotal: '£83.96' };
    window.localStorage.setItem('basket.country', 'GB');
    mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket': (url) => json(url.endsWith('?shippingCountry=GB') ? onTop : BASKET),
    });
    const { unmount } = renderBasket();
    expect(await screen.findByTestId('basket-tax', {}, { timeout: 5000 })).toHaveTextContent('£13.99');
    expect(screen.getByText('Tax', { selector: 'dt' })).toBeInTheDocument();
    expect(screen.queryByText('Tax included')).toBeNull();
    expect(screen.getByTestId('basket-total')).toHaveTextContent('£83.96');
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeEnabled();
    unmount();

    mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket': (url) => json(url.endsWith('?shippingCountry=GB') ? { ...TO_UK, tax: 0, taxAtPayment: true, net: 6997, displayNet: '£69.97' } : BASKET),
    });
    renderBasket();
    expect(await screen.findByText('Worked out at payment', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('basket-tax')).toBeNull();
  });

  it("shows the server's message for a country outside every zone, and does not check out", async () => {
    window.localStorage.setItem('basket.country', 'US');
    const problem = 'We do not ship printed books to United States. Remove the printed books from your basket or choose another country.';
    const fetch = mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket': (url) => json(url.endsWith('?shippingCountry=US') ? { ...NO_DESTINATION, shipping: { ...NO_DESTINATION.shipping!, country: 'US', problem } } : BASKET),
    });
    renderBasket();
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(problem);
    expect(screen.getByLabelText('Ship printed books to')).toHaveValue('');
    expect(screen.getByLabelText('Ship printed books to')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Checkout' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/checkout/basket'))).toBe(false);
  });

  it('lists the lines with their prices and totals, changes a quantity and checks out to the payment page', async () => {
    const fetch = mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket': () => json(BASKET),
      '/api/basket/items/1': () => json({ ...BASKET, lines: [line({ quantity: 3, lineTotal: 7497, displayLineTotal: '£74.97' }), BASKET.lines[1]], count: 4 }),
      '/api/checkout/basket': () => json({ url: '/pay/cs_basket' }),
    });
    const { router } = renderBasket();
    const rows = await screen.findAllByTestId('basket-line', {}, { timeout: 5000 });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('What We Owe the Dead');
    expect(rows[0]).toHaveTextContent('Hardcover');
    expect(rows[0]).toHaveTextContent('£24.99');
    expect(rows[0]).toHaveTextContent('£49.98');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('£64.97');
    expect(window.localStorage.getItem('basket.count')).toBe('3');

    fireEvent.change(screen.getByLabelText('Quantity of What We Owe the Dead (Hardcover)'), { target: { value: '3' } });
    await waitFor(() => expect(screen.getAllByTestId('basket-line')[0]).toHaveTextContent('£74.97'));
    const patch = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/basket/items/1'));
    expect(patch?.[1]).toMatchObject({ method: 'PATCH', body: JSON.stringify({ quantity: 3 }) });

    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pay/cs_basket');
  });

  it("shows the server's refusal naming the line, and keeps the reader on the basket", async () => {
    mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket': () => json(BASKET),
      '/api/checkout/basket': () =>
        json({ code: 'PRICE_CHANGED', message: 'The price of What We Owe the Dead (Hardcover) has changed from £24.99 to £25.99. Please check your basket and try again.' }, 409),
    });
    renderBasket();
    fireEvent.click(await screen.findByRole('button', { name: 'Checkout' }, { timeout: 5000 }));
    expect(await screen.findByText(/has changed from £24\.99 to £25\.99/)).toBeInTheDocument();
    expect(screen.getAllByTestId('basket-line')).toHaveLength(2);
  });

  it("prices a visitor's basket from the browser and sends them to sign in at Checkout", async () => {
    window.localStorage.setItem('basket.visitor', JSON.stringify([{ bookId: 1, format: 'hardcover', quantity: 2 }]));
    const fetch = mockFetch({
      '/api/users/check-auth': () => json(SIGNED_OUT),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket/preview': () => json({ ...BASKET, lines: [line({ id: null })], count: 2, subtotal: 4998, displaySubtotal: '£49.98', total: 4998, displayTotal: '£49.98' }),
    });
    const { router } = renderBasket();
    expect(await screen.findByTestId('basket-line', {}, { timeout: 5000 })).toHaveTextContent('£49.98');
    const preview = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/basket/preview'));
    expect(JSON.parse(String(preview?.[1]?.body))).toEqual({ items: [{ bookId: 1, format: 'hardcover', quantity: 2 }] });
    fireEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?returnTo=basket');
  });

  it('joins the visitor basket to the account basket once signed in', async () => {
    window.localStorage.setItem('basket.visitor', JSON.stringify([{ bookId: 1, format: 'audiobook', quantity: 1 }]));
    const fetch = mockFetch({
      '/api/users/check-auth': () => json(SIGNED_IN),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/basket/items': () => json(BASKET),
      '/api/basket': () => json(BASKET),
    });
    renderBasket();
    expect(await screen.findAllByTestId('basket-line', {}, { timeout: 5000 })).toHaveLength(2);
    const added = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/basket/items'));
    expect(JSON.parse(String(added?.[1]?.body))).toEqual({ bookId: 1, format: 'audiobook', quantity: 1 });
    expect(window.localStorage.getItem('basket.visitor')).toBeNull();
  });
});
