import { fireEvent, screen } from '@testing-library/react';
import { REVIEW_COPY_MESSAGES } from '@shared/schemas/review-copies';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import ReviewCopiesPage from './review-copies';

const CAMPAIGN = {
  slug: 'early-readers',
  book: { id: 7, title: 'The First Case', tagline: 'Every family keeps one secret.', coverImage: '/images/covers/first-case.jpg' },
  formatLabel: 'E-Book',
  question: 'Which thriller did you review last?',
  opensAt: '2026-11-01T00:00:00.000Z',
  closesAt: '2026-12-31T00:00:00.000Z',
  state: 'open',
};
const SIGNED_OUT = { isAuthenticated: false, user: null };
const applyCalls = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([url]) => String(url).endsWith('/apply'));
const open = () => renderWithRouter([{ path: '/review-copies/:slug', element: <ReviewCopiesPage /> }], '/review-copies/early-readers');

describe('/review-copies/{slug}', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('validates the application field by field, sends nothing until it is right, then says what happens next', async () => {
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/check-auth': () => json(SIGNED_OUT),
      '/api/review-copies/early-readers': () => json(CAMPAIGN),
      '/api/review-copies/early-readers/apply': () => json({ status: 'pending', message: REVIEW_COPY_MESSAGES.applied }, 201),
    });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'The First Case' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.change(screen.getByLabelText('Profile link 1'), { target: { value: 'goodreads' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply for a review copy' }));
    expect(await screen.findByText(REVIEW_COPY_MESSAGES.name)).toBeInTheDocument();
    expect(screen.getByText(REVIEW_COPY_MESSAGES.email)).toBeInTheDocument();
    expect(screen.getByText(REVIEW_COPY_MESSAGES.reviewsWhere)).toBeInTheDocument();
    expect(screen.getByText(REVIEW_COPY_MESSAGES.answer)).toBeInTheDocument();
    expect(screen.getByText(REVIEW_COPY_MESSAGES.profileLink)).toBeInTheDocument();
    expect(applyCalls(fetch)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Maud Critic' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'maud@example.com' } });
    fireEvent.change(screen.getByLabelText('Where do you review?'), { target: { value: 'My blog' } });
    fireEvent.change(screen.getByLabelText('Which thriller did you review last?'), { target: { value: 'Night Harbour' } });
    fireEvent.change(screen.getByLabelText('Profile link 1'), { target: { value: 'https://blog.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply for a review copy' }));
    expect(await screen.findByText('Application sent')).toBeInTheDocument();
    expect(screen.getByText(REVIEW_COPY_MESSAGES.applied)).toBeInTheDocument();
    expect(JSON.parse(String(applyCalls(fetch)[0][1]?.body))).toEqual({
      name: 'Maud Critic',
      email: 'maud@example.com',
      reviewsWhere: 'My blog',
      answer: 'Night Harbour',
      profileLinks: ['https://blog.example.com'],
    });
  });

  it('a full campaign says so and shows no form', async () => {
    mockFetch({
      '/api/users/check-auth': () => json(SIGNED_OUT),
      '/api/review-copies/early-readers': () => json({ ...CAMPAIGN, state: 'full' }),
    });
    open();
    expect(await screen.findByText('All copies are taken')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Apply for a review copy' })).not.toBeInTheDocument();
  });

  it('an approved reader posts a review link and is told the reminders stop', async () => {
    const copy = { id: 4, slug: 'early-readers', bookId: 7, bookTitle: 'The First Case', format: 'ebook', formatLabel: 'E-Book', status: 'approved', reviewLinks: [] };
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/users/check-auth': () => json({ isAuthenticated: true, user: { id: 3, role: 'user' } }),
      '/api/review-copies/early-readers': () => json(CAMPAIGN),
      '/api/review-copies/mine': () => json([copy]),
      '/api/review-copies/applications/4/links': () => json([{ ...copy, reviewLinks: [{ url: 'https://blog.example.com/r', postedAt: '2026-11-27T00:00:00.000Z' }] }], 201),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Post your review' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read now' })).toHaveAttribute('href', '/read/7/ebook');
    fireEvent.change(screen.getByLabelText('Link to your review'), { target: { value: 'not a link' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post link' }));
    expect(await screen.findByText(REVIEW_COPY_MESSAGES.reviewUrl)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Link to your review'), { target: { value: 'https://blog.example.com/r' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post link' }));
    expect(await screen.findByText('Thank you! Your review link is saved. We will not send you any more reminders.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'https://blog.example.com/r' })).toBeInTheDocument();
  });
});
