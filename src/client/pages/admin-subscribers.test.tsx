import { screen } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminSubscribersPage from './admin-subscribers';

const subscriber = (id: number, unsubscribedAt: string | null = null) => ({
  id,
  email: `s${id}@example.com`,
  name: `S${id}`,
  subscribedAt: '2026-11-01T10:00:00.000Z',
  unsubscribedAt,
});

describe('/admin/subscribers', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('counts active subscribers only, with the right plural', async () => {
    mockFetch({ '/api/admin/subscribers': () => json([subscriber(1), subscriber(2, '2026-11-10T10:00:00.000Z')]) });
    renderWithRouter([{ path: '/admin/subscribers', element: <AdminSubscribersPage /> }], '/admin/subscribers');
    expect(await screen.findByText('1 active subscriber to the Thriller Circle.')).toBeInTheDocument();
  });

  it('says "subscribers" for more than one', async () => {
    mockFetch({ '/api/admin/subscribers': () => json([subscriber(1), subscriber(2)]) });
    renderWithRouter([{ path: '/admin/subscribers', element: <AdminSubscribersPage /> }], '/admin/subscribers');
    expect(await screen.findByText('2 active subscribers to the Thriller Circle.')).toBeInTheDocument();
  });
});
