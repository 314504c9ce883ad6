import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BlogPage, BlogPostSummary } from '@shared/schemas/blog';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import BlogListPage from './blog-list';

const post = (n: number): BlogPostSummary => ({
  id: `note-${n}`,
  title: `Note ${n}`,
  date: '2026-03-12T09:00:00.000Z',
  author: 'Callum Reyes',
  bookId: null,
  excerpt: `Excerpt ${n}.`,
  coverImage: null,
  tags: [],
});

/** 27 posts: pages of 12, 12 and 3. */
function page(n: number): BlogPage {
  const all = Array.from({ length: 27 }, (_, i) => post(i + 1));
  return {
    posts: all.slice((n - 1) * 12, n * 12),
    page: n,
    pageSize: 12,
    totalPosts: 27,
    totalPages: 3,
    prevPage: n > 1 ? n - 1 : null,
    nextPage: n < 3 ? n + 1 : null,
  };
}

const routes = [
  { path: '/blog', element: <BlogListPage /> },
  { path: '/blog/page/:page', element: <BlogListPage /> },
];

beforeEach(() => {
  mockFetch({
    '/api/blog/page/1': () => json(page(1)),
    '/api/blog/page/2': () => json(page(2)),
    '/api/blog/page/3': () => json(page(3)),
    '/api/blog/page/4': () => json({ message: 'There is no such page of the blog', code: 'NOT_FOUND' }, 404),
  });
});

describe('BlogListPage', () => {
  it('shows the first twelve posts with a link to the older ones only', async () => {
    renderWithRouter(routes, '/blog');
    expect(await screen.findByRole('link', { name: 'Note 1' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Note 12' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Note 13' })).not.toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Blog pages' });
    expect(nav).toHaveTextContent('Page 1 of 3');
    expect(screen.getByRole('link', { name: 'Older posts' })).toHaveAttribute('href', '/blog/page/2');
    expect(screen.queryByRole('link', { name: 'Newer posts' })).not.toBeInTheDocument();
    expect(document.title).toMatch(/^Blog \|/);
  });

  it('walks to page 2 and back by its links', async () => {
    const { router } = renderWithRouter(routes, '/blog');
    await userEvent.click(await screen.findByRole('link', { name: 'Older posts' }));
    expect(router.state.location.pathname).toBe('/blog/page/2');
    expect(await screen.findByRole('link', { name: 'Note 13' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Note 1' })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Blog pages' })).toHaveTextContent('Page 2 of 3');
    expect(document.title).toMatch(/^Blog, page 2 \|/);
    expect(screen.getByRole('link', { name: 'Older posts' })).toHaveAttribute('href', '/blog/page/3');
    await userEvent.click(screen.getByRole('link', { name: 'Newer posts' }));
    expect(router.state.location.pathname).toBe('/blog');
    expect(await screen.findByRole('link', { name: 'Note 1' })).toBeInTheDocument();
  });

  it('the last page links to the newer posts only', async () => {
    renderWithRouter(routes, '/blog/page/3');
    expect(await screen.findByRole('link', { name: 'Note 25' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Newer posts' })).toHaveAttribute('href', '/blog/page/2');
    expect(screen.queryByRole('link', { name: 'Older posts' })).not.toBeInTheDocument();
  });

  it('a page past the last, or no page number at all, is the not-found page', async () => {
    renderWithRouter(routes, '/blog/page/4');
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeInTheDocument();
    renderWithRouter(routes, '/blog/page/abc');
    expect(screen.getAllByRole('heading', { level: 1, name: '404 Page Not Found' })).toHaveLength(2);
  });

  it('a blog of one page shows no page links', async () => {
    mockFetch({ '/api/blog/page/1': () => json({ ...page(1), posts: [post(1)], totalPosts: 1, totalPages: 1, nextPage: null }) });
    renderWithRouter(routes, '/blog');
    expect(await screen.findByRole('link', { name: 'Note 1' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Blog pages' })).not.toBeInTheDocument();
  });
});
