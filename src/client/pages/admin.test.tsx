import { screen } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminPage from './admin';

describe('/admin hub: Recent changes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each change in words, with who made it, never the raw code', async () => {
    mockFetch({
      '/api/books': () => json([{ id: 3, title: 'What We Owe the Dead', tagline: 't', synopsis: 's', coverImage: '/c.svg', yearPublished: 2026, publisher: 'Harrow & Vane', featured: true }]),
      '/api/admin/messages': () => json({ items: [], nextCursor: null, unread: 0 }),
      '/api/admin/audit': () =>
        json([
          { id: 2, actor: 'author', action: 'settings.update', targetType: 'site_settings', targetId: 'site.content', details: { changed: [] }, createdAt: '2026-11-20T10:00:00.000Z' },
          { id: 1, actor: 'author', action: 'book.update', targetType: 'book', targetId: '3', details: { changed: { tagline: 'x' } }, createdAt: '2026-11-19T10:00:00.000Z' },
        ]),
    });
    renderWithRouter([{ path: '/admin', element: <AdminPage /> }], '/admin');
    expect(await screen.findByText('Site content updated')).toBeInTheDocument();
    expect(await screen.findByText('Book "What We Owe the Dead" edited')).toBeInTheDocument();
    expect(screen.getAllByText('by author')).toHaveLength(2);
    expect(screen.queryByText(/settings\.update/)).not.toBeInTheDocument();
    expect(screen.queryByText(/#site\.content/)).not.toBeInTheDocument();
  });
});
