import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminOrder } from '@shared/schemas/admin';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminOrdersPage from './admin-orders';

const order = (over: Partial<AdminOrder> & { id: number }): AdminOrder => ({
  orderReference: `WWD-${over.id}`,
  purchaseDate: '2026-11-20T10:00:00.000Z',
  buyer: { id: 7, username: 'ada', email: 'ada@example.com', displayName: 'Ada Reader' },
  book: { id: 1, title: 'What We Owe the Dead' },
  format: 'ebook',
  price: 999,
  currency: 'GBP',
  status: 'completed',
  downloadCount: 0,
  maxDownloads: 1,
  downloadUsed: false,
  lastDownloaded: null,
  shippedAt: null,
  customerName: 'Ada Reader',
  shippingAddress: null,
  kind: 'paid',
  refundedAt: null,
  refundedBy: null,
  ...over,
});

const giftOf = (over: Partial<NonNullable<AdminOrder['gift']>>): NonNullable<AdminOrder['gift']> => ({
  id: 1,
  recipientName: 'Fran Okafor',
  recipientEmail: 'fran@example.org',
  status: 'sent',
  sendAt: null,
  sentAt: '2026-11-20T10:05:00.000Z',
  claimedAt: null,
  canResend: true,
  downloaded: false,
  ...over,
});

describe('/admin/orders words', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('formats and statuses in words, the buyer by name, the address a print order ships to', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () =>
        json({
          items: [
            order({ id: 1 }),
            order({
              id: 2,
              format: 'paperback',
              price: 1699,
              maxDownloads: 0,
              shippingAddress: { name: 'Ada Reader', address: { line1: '1 Harbour Street', line2: null, city: 'Whitby', postal_code: 'YO21 3PU', country: 'GB' } },
            }),
          ],
          total: 2,
          page: 1,
          pageSize: 50,
        }),
      '/api/admin/orders/1/reset-download': () => json(order({ id: 1 })),
    });
    renderWithRouter([{ path: '/admin/orders', element: <><AdminOrdersPage /><Toaster /></> }], '/admin/orders');
    const ebook = within(await screen.findByTestId('order-1'));
    expect(ebook.getByText('E-Book')).toBeInTheDocument();
    expect(ebook.getByText('Paid')).toBeInTheDocument();
    expect(ebook.getByText('0 of 1 download used')).toBeInTheDocument();
    expect(ebook.queryByText('ebook')).not.toBeInTheDocument();
    expect(ebook.queryByText('completed')).not.toBeInTheDocument();
    const print = within(screen.getByTestId('order-2'));
    expect(print.getByText('Paperback')).toBeInTheDocument();
    expect(print.getByText('Paid, to ship')).toBeInTheDocument();
    expect(print.getByText('Not shipped yet')).toBeInTheDocument();
    expect(print.getByRole('group', { name: 'Ship order WWD-2 to' }).textContent).toBe('Ada Reader1 Harbour StreetWhitby YO21 3PUGB');
    expect(screen.getByRole('option', { name: 'Hardcover' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Awaiting payment' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'completed' })).not.toBeInTheDocument();
  });

  it('a reset download names the buyer, not their username', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () => json({ items: [order({ id: 1, downloadCount: 1, downloadUsed: true })], total: 1, page: 1, pageSize: 50 }),
      '/api/admin/orders/1/reset-download': () => json(order({ id: 1 })),
    });
    renderWithRouter([{ path: '/admin/orders', element: <><AdminOrdersPage /><Toaster /></> }], '/admin/orders');
    fireEvent.click(await screen.findByRole('button', { name: 'Reset download for order WWD-1' }));
    expect(await screen.findByText('Ada Reader can download the E-Book once more.')).toBeInTheDocument();
  });
});

describe('/admin/orders refunds', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('Refund asks first, then refunds; refunded orders say by whom and when; included items cannot be refunded alone', async () => {
    let refunded = false;
    const posts: string[] = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () =>
        json({
          items: [
            order({ id: 3, format: 'hardcover', price: 2499, ...(refunded ? { status: 'refunded', refundedAt: '2026-11-21T09:30:00.000Z', refundedBy: 'author' } : {}) }),
            order({ id: 4, price: 0, kind: 'included' }),
            order({ id: 5, status: 'refunded', refundedAt: '2026-11-19T08:00:00.000Z', refundedBy: null }),
            order({ id: 6, kind: 'gift', maxDownloads: 0, gift: giftOf({ status: 'sent' }) }),
            order({ id: 7, kind: 'gift', maxDownloads: 0, gift: giftOf({ status: 'claimed', downloaded: false }) }),
            order({ id: 8, kind: 'gift', maxDownloads: 0, gift: giftOf({ status: 'claimed', downloaded: true }) }),
            order({ id: 9, format: 'pdf', price: 0, kind: 'included' }),
          ],
          total: 7,
          page: 1,
          pageSize: 50,
        }),
      '/api/admin/orders/3/refund': (url) => {
        posts.push(url);
        refunded = true;
        return json(order({ id: 3, status: 'refunded' }));
      },
    });
    renderWithRouter([{ path: '/admin/orders', element: <><AdminOrdersPage /><Toaster /></> }], '/admin/orders');
    const row = await screen.findByTestId('order-3');
    expect(within(screen.getByTestId('order-4')).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('order-4')).getByText('Included with a print order')).toBeInTheDocument();
    // The PDF edition comes with the e-book, never with print.
    expect(within(screen.getByTestId('order-9')).getByText('Included with the e-book')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-9')).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('order-5')).getByText(/Refunded at the payment provider on/)).toBeInTheDocument();
    const gift = within(screen.getByTestId('order-6'));
    expect(gift.getByText('Bought as a gift')).toBeInTheDocument();
    // Never "downloaded" unless the recipient did download it.
    expect(gift.getByText('Sent to Fran Okafor, not claimed yet')).toBeInTheDocument();
    expect(gift.queryByText(/download|of 0 used/i)).not.toBeInTheDocument();
    expect(within(screen.getByTestId('order-7')).getByText('Claimed by Fran Okafor, not downloaded yet')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-8')).getByText('Claimed and downloaded by Fran Okafor')).toBeInTheDocument();
    expect(gift.getByRole('button', { name: 'Refund order WWD-6' })).toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: 'Refund order WWD-3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund order WWD-3?' });
    expect(within(dialog).getByText(/Ada Reader gets £24.99 back/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
    expect(posts).toEqual([]);

    fireEvent.click(within(row).getByRole('button', { name: 'Refund order WWD-3' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Refund £24.99' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(await screen.findByText('Order refunded')).toBeInTheDocument();
    expect(await within(screen.getByTestId('order-3')).findByText(/Refunded by author on/)).toBeInTheDocument();
    expect(within(screen.getByTestId('order-3')).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
  });
});

describe('/admin/orders partial refunds', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refunds only the amount typed, refuses more than is left, and lists each refund', async () => {
    let refunds: NonNullable<AdminOrder['refunds']> = [];
    const bodies: unknown[] = [];
    const row = () => order({ id: 3, format: 'hardcover', price: 2499, refundedAmount: refunds.reduce((s, r) => s + r.amount, 0), refunds });
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () => json({ items: [row()], total: 1, page: 1, pageSize: 50 }),
      '/api/admin/orders/3/refund': (_url, init) => {
        const body = JSON.parse(String(init?.body ?? '{}')) as { amount: number };
        bodies.push(body);
        refunds = [...refunds, { id: refunds.length + 1, amount: body.amount, whole: false, at: '2026-11-21T09:30:00.000Z', by: 'author' }];
        return json(row());
      },
    });
    renderWithRouter([{ path: '/admin/orders', element: <><AdminOrdersPage /><Toaster /></> }], '/admin/orders');
    fireEvent.click(await screen.findByRole('button', { name: 'Refund order WWD-3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund order WWD-3?' });
    const amount = within(dialog).getByLabelText('Or refund only part of it (£)');
    fireEvent.change(amount, { target: { value: '30' } });
    expect(within(dialog).getByText('At most £24.99 can be refunded')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Refund £30.00' })).toBeDisabled();
    fireEvent.change(amount, { target: { value: 'three' } });
    expect(within(dialog).getByText('Give an amount such as 3.50')).toBeInTheDocument();
    fireEvent.change(amount, { target: { value: '3.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund £3.50' }));
    await waitFor(() => expect(bodies).toEqual([{ amount: 350 }]));
    expect(await screen.findByText('Order refunded')).toBeInTheDocument();
    const refunded = within(screen.getByTestId('order-3'));
    expect(await refunded.findByText('£3.50 refunded')).toBeInTheDocument();
    expect(refunded.getByRole('list', { name: 'Refunds of order WWD-3' })).toHaveTextContent('£3.50 refunded by author on');
    // What is left is what a whole refund now gives back.
    fireEvent.click(refunded.getByRole('button', { name: 'Refund order WWD-3' }));
    expect(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Refund £21.49' })).toBeInTheDocument();
  });
});

describe('/admin/orders count', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says "1 order", not "1 orders"', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () => json({ items: [order({ id: 9 })], total: 1, page: 1, pageSize: 50 }),
    });
    renderWithRouter([{ path: '/admin/orders', element: <AdminOrdersPage /> }], '/admin/orders');
    expect(await screen.findByText('1 order · page 1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('says "More than 1,000 orders" when the count stopped at its cap, and lets the author page on', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () => json({ items: [order({ id: 9 })], total: 1000, totalCapped: true, page: 1, pageSize: 50, nextCursor: 'WyJ4IiwxXQ' }),
    });
    renderWithRouter([{ path: '/admin/orders', element: <AdminOrdersPage /> }], '/admin/orders');
    expect(await screen.findByText('More than 1,000 orders · page 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });
});

describe('/admin/orders Mark shipped', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the carrier and tracking number, refuses half of them, and sends them', async () => {
    let shipped: AdminOrder | null = null;
    const bodies: unknown[] = [];
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () =>
        json({ items: [shipped ?? order({ id: 2, format: 'paperback', price: 1699, maxDownloads: 0 })], total: 1, page: 1, pageSize: 50 }),
      '/api/admin/orders/2/ship': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        shipped = order({ id: 2, format: 'paperback', price: 1699, maxDownloads: 0, status: 'shipped', shippedAt: '2026-11-21T09:30:00.000Z', carrier: 'Royal Mail', trackingNumber: 'AB123456789GB' });
        return json(shipped);
      },
    });
    renderWithRouter([{ path: '/admin/orders', element: <><AdminOrdersPage /><Toaster /></> }], '/admin/orders');
    fireEvent.click(await screen.findByRole('button', { name: 'Mark order WWD-2 shipped' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.change(dialog.getByLabelText('Carrier'), { target: { value: 'Royal Mail' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Mark shipped' }));
    expect(await dialog.findByText('Give the tracking number for this carrier')).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Tracking number'), { target: { value: 'AB123456789GB' } });
    fireEvent.change(dialog.getByLabelText('Tracking link (optional)'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Mark shipped' }));
    expect(await dialog.findByText('The tracking link must be a web address starting with http:// or https://')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    fireEvent.change(dialog.getByLabelText('Tracking link (optional)'), { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Mark shipped' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(await screen.findByText('Ada Reader has been told by email.')).toBeInTheDocument();
    expect(bodies).toEqual([{ carrier: 'Royal Mail', trackingNumber: 'AB123456789GB', trackingUrl: '' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/Shipped .* · Royal Mail AB123456789GB/)).toBeInTheDocument();
  });
});
