import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { PaymentSession } from '@shared/schemas/checkout';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, Outlet, renderWithRouter } from '@client/test/render';
import PayPage from './pay';

const SESSION: PaymentSession = {
  id: 'cs_1',
  status: 'open',
  provider: 'local',
  format: 'ebook',
  amount: 999,
  currency: 'GBP',
  displayPrice: '£9.99',
  digital: true,
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  book: { id: 1, title: 'What We Owe the Dead', coverImage: '/c.svg' },
  customerEmail: 'ada@example.com',
  orderReference: null,
};

function renderPay() {
  return renderWithRouter(
    [
      {
        element: <><Outlet /><Toaster /></>,
        children: [
          { path: '/pay/:sessionId', element: <PayPage /> },
          { path: '/profile', element: <p>profile page</p> },
          { path: '/', element: <p>home page</p> },
        ],
      },
    ],
    '/pay/cs_1',
  );
}

describe('/pay/:sessionId', () => {
  beforeEach(() => act(() => resetToastStore()));

  it('shows book, format and price; Pay disables both buttons, then goes to the library', async () => {
    let release: ((r: Response) => void) | null = null;
    mockFetch({
      '/api/checkout/sessions/cs_1': () => json(SESSION),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/checkout/sessions/cs_1/pay': () => new Promise((r) => (release = r)),
    });
    const { router } = renderPay();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay £9.99' }));
    expect(screen.getByRole('heading', { name: 'What We Owe the Dead' })).toBeInTheDocument();
    expect(await screen.findByText('Processing...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await waitFor(() => expect(release).not.toBeNull());
    act(() => release!(json({ status: 'completed', redirectTo: '/profile#library', orderReference: 'WWD-1' })));
    expect(await screen.findByText('profile page')).toBeInTheDocument();
    expect(router.state.location.hash).toBe('#library');
    expect(screen.getByText('Payment successful')).toBeInTheDocument();
  });

  it('Cancel asks first; confirmed, it cancels, says so and returns to the formats', async () => {
    const fetch = mockFetch({
      '/api/checkout/sessions/cs_1': () => json(SESSION),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/checkout/sessions/cs_1/cancel': () => json({ status: 'cancelled', redirectTo: '/#purchase', orderReference: null }),
    });
    const { router } = renderPay();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this checkout?' });
    expect(dialog).toHaveTextContent('No payment will be taken. You can choose a format again at any time.');
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/cancel'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel checkout' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(router.state.location.hash).toBe('#purchase');
    expect(screen.getByText('Checkout cancelled')).toBeInTheDocument();
    expect(screen.getByText('No payment was taken.')).toBeInTheDocument();
  });

  it('"Keep paying" closes the question and cancels nothing', async () => {
    const fetch = mockFetch({ '/api/checkout/sessions/cs_1': () => json(SESSION) });
    renderPay();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Keep paying' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Pay £9.99' })).toBeEnabled();
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/cancel'))).toBe(false);
  });

  it('labels the test payment as a demo feature that is off in production', async () => {
    mockFetch({ '/api/checkout/sessions/cs_1': () => json(SESSION) });
    renderPay();
    const note = await screen.findByRole('note', { name: /^Test payment/ });
    expect(note).toHaveTextContent('Demo');
    expect(note).toHaveTextContent('Test payments are a demo feature and are switched off in production, where card payments go through the payment provider.');
  });

  it('a completed physical order shows its confirmation and status', async () => {
    mockFetch({
      '/api/checkout/sessions/cs_1': () =>
        json({ ...SESSION, status: 'completed', format: 'hardcover', digital: false, displayPrice: '£24.99', orderReference: 'WWD-ABC' }),
    });
    renderPay();
    expect(await screen.findByText('Order confirmed')).toBeInTheDocument();
    expect(screen.getByText('WWD-ABC')).toBeInTheDocument();
    expect(screen.getByText('Preparing to ship')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
  });

  it('with a discount code: list price, the discount with its code, and Pay for the discounted price', async () => {
    mockFetch({
      '/api/checkout/sessions/cs_1': () =>
        json({ ...SESSION, amount: 799, displayPrice: '£7.99', originalAmount: 999, displayOriginalPrice: '£9.99', discountCode: 'LAUNCH' }),
    });
    renderPay();
    expect(await screen.findByRole('button', { name: 'Pay £7.99' })).toBeInTheDocument();
    expect(screen.getByText('E-Book × 1').nextSibling).toHaveTextContent('£9.99');
    expect(screen.getByText('LAUNCH')).toBeInTheDocument();
    expect(screen.getByTestId('discount')).toHaveTextContent('-£2.00');
    const total = screen.getByText('Total due').nextSibling as HTMLElement;
    expect(total.querySelector('s')).toHaveTextContent('£9.99');
    expect(screen.getByTestId('price-to-pay')).toHaveTextContent('£7.99');
  });

  it('a gift names its recipient and when they get the link', async () => {
    mockFetch({
      '/api/checkout/sessions/cs_1': () =>
        json({ ...SESSION, gift: { recipientName: 'Fran Okafor', recipientEmail: 'fran@example.org', sendAt: null } }),
    });
    renderPay();
    await screen.findByRole('button', { name: 'Pay £9.99' });
    const note = screen.getByText('Fran Okafor').closest('p')!;
    expect(note).toHaveTextContent('A gift for Fran Okafor (fran@example.org). We email them a link to claim it as soon as you have paid.');
    expect(screen.getByText('By email to the recipient')).toBeInTheDocument();
  });

  it('a print order asks for the shipping address before paying, and sends it', async () => {
    const sent: unknown[] = [];
    mockFetch({
      '/api/checkout/sessions/cs_1': () => json({ ...SESSION, format: 'paperback', digital: false, amount: 1699, displayPrice: '£16.99' }),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/checkout/sessions/cs_1/pay': (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        return json({ status: 'completed', redirectTo: '/pay/cs_1', orderReference: 'WWD-P' });
      },
    });
    renderPay();
    const pay = await screen.findByRole('button', { name: 'Pay £16.99' });
    expect(screen.getByRole('group', { name: 'Shipping address' })).toBeInTheDocument();
    fireEvent.click(pay);
    expect(await screen.findByText('Enter the name to ship to')).toBeInTheDocument();
    expect(screen.getByText('Enter the first line of the address')).toBeInTheDocument();
    expect(screen.getByLabelText('Postcode')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Ada Reader' } });
    fireEvent.change(screen.getByLabelText('Address line 1'), { target: { value: '1 Harbour Street' } });
    fireEvent.change(screen.getByLabelText('Town or city'), { target: { value: 'Whitby' } });
    fireEvent.change(screen.getByLabelText('Postcode'), { target: { value: 'YO21 3PU' } });
    fireEvent.click(pay);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      shippingAddress: { name: 'Ada Reader', line1: '1 Harbour Street', city: 'Whitby', postalCode: 'YO21 3PU', country: 'United Kingdom' },
    });
  });

  it('a basket order lists every line, the discount, its shipping line, the net and the tax inside the prices before Pay', async () => {
    const lineOf = (id: number, description: string, format: 'hardcover' | 'audiobook', quantity: number, unitPrice: number, tax: number, amount = unitPrice * quantity) => ({
      id,
      description,
      format,
      quantity,
      unitPrice,
      displayUnitPrice: '',
      amount,
      displayAmount: '',
      tax,
      displayTax: '',
    });
    mockFetch({
      '/api/checkout/sessions/cs_1': () =>
        json({
          ...SESSION,
          format: 'hardcover',
          digital: false,
          // A code took £2.50 off each hardcover.
          amount: 6497,
          displayPrice: '£64.97',
          originalAmount: 6497,
          displayOriginalPrice: '£64.97',
          discountCode: 'PRINT10',
          lines: [lineOf(1, 'What We Owe the Dead (Hardcover)', 'hardcover', 2, 2499, 0, 4498), lineOf(2, 'What We Owe the Dead (Audiobook)', 'audiobook', 1, 1499, 250)],
          net: 6247,
          displayNet: '£62.47',
          tax: 250,
          displayTax: '£2.50',
          pricesIncludeTax: true,
          shipping: 500,
          displayShipping: '£5.00',
          shippingDescription: 'Shipping to United Kingdom',
        }),
    });
    renderPay();
    const lines = await screen.findAllByTestId('order-line');
    expect(lines.map((l) => l.textContent)).toEqual(['What We Owe the Dead (Hardcover) × 2£49.98', 'What We Owe the Dead (Audiobook) × 1£14.99']);
    expect(screen.getByTestId('discount')).toHaveTextContent('-£5.00');
    expect(screen.getByTestId('order-shipping')).toHaveTextContent('Shipping to United Kingdom£5.00');
    expect(screen.getByTestId('order-net')).toHaveTextContent('£62.47');
    expect(screen.getByText('Tax included')).toBeInTheDocument();
    expect(screen.getByTestId('order-tax')).toHaveTextContent('£2.50');
    expect(screen.queryByTestId('original-price')).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay £64.97' })).toBeInTheDocument();
  });

  it('the confirmation of a print order shows where it ships', async () => {
    mockFetch({
      '/api/checkout/sessions/cs_1': () =>
        json({
          ...SESSION,
          status: 'completed',
          format: 'hardcover',
          digital: false,
          displayPrice: '£24.99',
          orderReference: 'WWD-ABC',
          shippingAddress: ['Ada Reader', '1 Harbour Street', 'Whitby YO21 3PU', 'United Kingdom'],
        }),
    });
    renderPay();
    expect(await screen.findByText('Shipping to')).toBeInTheDocument();
    expect(screen.getByText('Whitby YO21 3PU')).toBeInTheDocument();
    expect(screen.getByText('Total paid')).toBeInTheDocument();
  });

  it('a pre-order says "Pre-order, available on {date}" on the page, in the toast and on the print confirmation', async () => {
    const availableAt = '2027-03-12T09:00:00.000Z';
    mockFetch({
      '/api/checkout/sessions/cs_1': () => json({ ...SESSION, availableAt }),
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/checkout/sessions/cs_1/pay': () => json({ status: 'completed', redirectTo: '/profile#library', orderReference: 'WWD-1' }),
    });
    renderPay();
    expect(await screen.findByText('Pre-order, available on 12 March 2027')).toBeInTheDocument();
    expect(screen.getByText('In your library on release day')).toBeInTheDocument();
    expect(screen.queryByText('Instant download')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Pay £9.99' }));
    expect(await screen.findByText('profile page')).toBeInTheDocument();
    expect(screen.getByText('Payment successful')).toBeInTheDocument();
    expect(screen.getByText('Pre-order, available on 12 March 2027. Your E-Book will be in your library on release day.')).toBeInTheDocument();
  });

  it('a confirmed hardcover pre-order has the pre-order as its status, not "Preparing to ship"', async () => {
    mockFetch({
      '/api/checkout/sessions/cs_1': () =>
        json({ ...SESSION, status: 'completed', format: 'hardcover', digital: false, displayPrice: '£25.99', orderReference: 'WWD-PRE', availableAt: '2027-03-12T09:00:00.000Z' }),
    });
    renderPay();
    expect(await screen.findByRole('heading', { name: 'Order confirmed' })).toBeInTheDocument();
    expect(screen.getAllByText('Pre-order, available on 12 March 2027')).toHaveLength(2);
    expect(screen.queryByText('Preparing to ship')).not.toBeInTheDocument();
    expect(screen.getByText(/shipped to you when the book comes out on 12 March 2027/)).toBeInTheDocument();
  });
});

