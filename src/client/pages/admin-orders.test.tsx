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
            order({ id: 6, kind: 'gift', maxDownloads: 0 }),
          ],
          total: 4,
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
    expect(within(screen.getByTestId('order-5')).getByText(/Refunded at the payment provider on/)).toBeInTheDocument();
    const gift = within(screen.getByTestId('order-6'));
    expect(gift.getByText('Bought as a gift')).toBeInTheDocument();
    expect(gift.getByText('Downloaded by the recipient')).toBeInTheDocument();
    expect(gift.queryByText(/of 0 used/)).not.toBeInTheDocument();
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

describe('/admin/orders count', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says "1 order", not "1 orders"', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/orders': () => json({ items: [order({ id: 9 })], total: 1, page: 1, pageSize: 50 }),
    });
    renderWithRouter([{ path: '/admin/orders', element: <AdminOrdersPage /> }], '/admin/orders');
    expect(await screen.findByText('1 order · page 1 of 1')).toBeInTheDocument();
  });
});
