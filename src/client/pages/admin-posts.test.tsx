import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminPostSummary } from '@shared/schemas/admin';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminPostsPage from './admin-posts';

const post = (id: number, isPublished = true): AdminPostSummary => ({
  id,
  title: `Post ${id}`,
  slug: `post-${id}`,
  excerpt: 'An excerpt',
  coverImage: null,
  bookId: null,
  tags: [],
  isPublished,
  publishedAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
});

describe('/admin/posts', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows more posts from the cursor until the last page', async () => {
    mockFetch({
      '/api/admin/posts': (url) =>
        new URL(url, 'http://localhost').searchParams.get('after') === 'c1'
          ? json({ items: [post(1, false)], nextCursor: null })
          : json({ items: [post(3), post(2)], nextCursor: 'c1' }),
    });
    const user = userEvent.setup();
    renderWithRouter([{ path: '/admin/posts', element: <AdminPostsPage /> }], '/admin/posts');
    expect(await screen.findByRole('rowheader', { name: /^Post 3/ })).toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: /^Post 1/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    const last = await screen.findByRole('rowheader', { name: /^Post 1/ });
    expect(last).toHaveTextContent('Post 1/blog/post-1');
    expect(screen.getAllByRole('rowheader')).toHaveLength(3);
    expect(screen.getByText('Draft')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});
