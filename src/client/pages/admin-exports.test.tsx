import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminOrdersPage from './admin-orders';
import AdminUsersPage from './admin-users';

const csv = (name: string) =>
  new Response('\uFEFF"a"\r\n', { status: 200, headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` } });

/** The paths and queries the page asked the server for. */
const asked = (fetch: ReturnType<typeof mockFetch>, path: string) => fetch.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith(path));

describe('"Export CSV" on the Orders and Users pages', () => {
  const saved: string[] = [];
  beforeEach(() => {
    saved.length = 0;
    // The test browser has no object URLs; the file itself is the server's, tested there.
    vi.stubGlobal('URL', class extends URL {
      static override createObjectURL = () => 'blob:export';
      static override revokeObjectURL = () => undefined;
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('exports the readers the search finds, under the name the server gives', async () => {
    const fetch = mockFetch({
      '/api/admin/users': () => json({ items: [], nextCursor: null }),
      '/api/admin/users/export.csv': () => csv('thriller-circle-readers-2026-11-27.csv'),
    });
    const user = userEvent.setup();
    renderWithRouter([{ path: '/admin/users', element: <AdminUsersPage /> }], '/admin/users');
    await user.type(await screen.findByLabelText('Search user name or email'), 'maud');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('No account matches this search.');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['thriller-circle-readers-2026-11-27.csv']));
    expect(asked(fetch, '/api/admin/users/export.csv')).toEqual(['/api/admin/users/export.csv?q=maud']);
  });

  it("exports the orders with the list's filters, and says so when the export fails", async () => {
    let fail = false;
    const fetch = mockFetch({
      '/api/admin/orders': () => json({ items: [], total: 0, totalCapped: false, page: 1, pageSize: 50, nextCursor: null }),
      '/api/admin/orders/export.csv': () => (fail ? json({ message: 'Too busy, try again', code: 'UNAVAILABLE' }, 503) : csv('thriller-circle-orders-2026-11-27.csv')),
    });
    const user = userEvent.setup();
    renderWithRouter([{ path: '/admin/orders', element: <><AdminOrdersPage /><Toaster /></> }], '/admin/orders');
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toEqual(['thriller-circle-orders-2026-11-27.csv']));
    await user.selectOptions(screen.getByLabelText('Status'), 'Refunded');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(asked(fetch, '/api/admin/orders/export.csv')).toEqual(['/api/admin/orders/export.csv', '/api/admin/orders/export.csv?status=refunded']));
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(saved).toHaveLength(2);
  });
});
