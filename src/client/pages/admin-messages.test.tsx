import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminMessage } from '@shared/schemas/admin';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminMessagesPage from './admin-messages';

const message = (id: number, readAt: string | null = null): AdminMessage => ({
  id,
  name: `Reader ${id}`,
  email: `reader${id}@example.com`,
  subject: 'General',
  message: `Message number ${id}`,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt,
});

/** A page of the inbox as the server answers it: the unread count is the whole inbox's. */
const page = (items: AdminMessage[], nextCursor: string | null, unread: number) => json({ items, nextCursor, unread });

describe('/admin/messages', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows more messages from the cursor, keeps the filter on every page, and counts the unread', async () => {
    const fetch = mockFetch({
      '/api/admin/messages': (url) => {
        const params = new URL(url, 'http://localhost').searchParams;
        if (params.get('filter') === 'unread') return page([message(2)], null, 3);
        return params.get('after') === 'c1' ? page([message(1, '2026-11-21T10:00:00.000Z')], null, 3) : page([message(3), message(2)], 'c1', 3);
      },
    });
    const user = userEvent.setup();
    renderWithRouter([{ path: '/admin/messages', element: <AdminMessagesPage /> }], '/admin/messages');
    expect(await screen.findByText('Message number 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unread (3)' })).toBeInTheDocument();
    expect(screen.queryByText('Message number 1')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Message number 1')).toBeInTheDocument();
    expect(screen.getByText('Message number 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Unread (3)' }));
    await screen.findByRole('button', { name: 'Unread (3)', pressed: true });
    expect(await screen.findByText('Message number 2')).toBeInTheDocument();
    expect(screen.queryByText('Message number 3')).not.toBeInTheDocument();
    const asked = fetch.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/admin/messages'));
    expect(asked).toEqual(['/api/admin/messages?filter=all', '/api/admin/messages?filter=all&after=c1', '/api/admin/messages?filter=unread']);
  });
});
