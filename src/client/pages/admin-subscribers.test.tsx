import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminSubscribersPage from './admin-subscribers';

const subscriber = (id: number, unsubscribedAt: string | null = null, state = unsubscribedAt ? 'unsubscribed' : 'confirmed', source = 'home') => ({
  id,
  email: `s${id}@example.com`,
  name: `S${id}`,
  subscribedAt: '2026-11-01T10:00:00.000Z',
  unsubscribedAt,
  state,
  source,
});

/** One page as the server answers it, with the counts it computes over the whole list. */
const page = (items: ReturnType<typeof subscriber>[], nextCursor: string | null = null) =>
  json({
    items,
    nextCursor,
    total: items.length,
    active: items.filter((s) => !s.unsubscribedAt).length,
    unconfirmed: items.filter((s) => s.state === 'unconfirmed').length,
  });

describe('/admin/subscribers', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('counts active subscribers only, with the right plural', async () => {
    mockFetch({ '/api/admin/subscribers': () => page([subscriber(1), subscriber(2, '2026-11-10T10:00:00.000Z')]) });
    renderWithRouter([{ path: '/admin/subscribers', element: <AdminSubscribersPage /> }], '/admin/subscribers');
    expect(await screen.findByText('1 active subscriber to the Thriller Circle.')).toBeInTheDocument();
  });

  it('says "subscribers" for more than one', async () => {
    mockFetch({ '/api/admin/subscribers': () => page([subscriber(1), subscriber(2)]) });
    renderWithRouter([{ path: '/admin/subscribers', element: <AdminSubscribersPage /> }], '/admin/subscribers');
    expect(await screen.findByText('2 active subscribers to the Thriller Circle.')).toBeInTheDocument();
  });

  it('shows each address\'s state and source in words, and how many have not confirmed', async () => {
    mockFetch({
      '/api/admin/subscribers': () =>
        page([
          subscriber(1, null, 'unconfirmed', 'home'),
          subscriber(2, null, 'confirmed', 'footer'),
          subscriber(3, '2026-11-10T10:00:00.000Z', 'unsubscribed', 'checkout'),
          subscriber(4, null, 'bounced', 'import'),
          subscriber(5, null, 'complained', 'unknown'),
        ]),
    });
    renderWithRouter([{ path: '/admin/subscribers', element: <AdminSubscribersPage /> }], '/admin/subscribers');
    expect(await screen.findByText('4 active subscribers to the Thriller Circle. 1 has not confirmed yet.')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Email', 'Name', 'Subscribed', 'State', 'Source']);
    const cells = (email: string) =>
      within(screen.getByRole('cell', { name: email }).closest('tr')!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('s1@example.com').slice(3)).toEqual(['Unconfirmed', 'Home page']);
    expect(cells('s2@example.com').slice(3)).toEqual(['Confirmed', 'Footer']);
    expect(cells('s3@example.com')[3]).toMatch(/^Unsubscribed \d/);
    expect(cells('s3@example.com')[4]).toBe('Checkout');
    expect(cells('s4@example.com').slice(3)).toEqual(['Bounced', 'Import']);
    expect(cells('s5@example.com').slice(3)).toEqual(['Complained', 'Unknown']);
  });

  it('shows more rows from the cursor, and searches on the server', async () => {
    const fetch = mockFetch({
      '/api/admin/subscribers': (url) => {
        const params = new URL(url, 'http://localhost').searchParams;
        if (params.get('q') === 'ann') return page([subscriber(9)]);
        return params.get('after') === 'c1' ? page([subscriber(3)]) : page([subscriber(1), subscriber(2)], 'c1');
      },
    });
    const user = userEvent.setup();
    renderWithRouter([{ path: '/admin/subscribers', element: <AdminSubscribersPage /> }], '/admin/subscribers');
    await user.click(await screen.findByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('cell', { name: 's3@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 's1@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Search email or name'), 'ann');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('cell', { name: 's9@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('cell', { name: 's1@example.com' })).not.toBeInTheDocument();
    expect(fetch.mock.calls.map(([u]) => String(u))).toContain('/api/admin/subscribers?q=ann');
  });
});
