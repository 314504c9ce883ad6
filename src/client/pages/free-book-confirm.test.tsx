import { fireEvent, screen } from '@testing-library/react';
import { FREE_BOOK_MESSAGES } from '@shared/schemas/free-books';
import { getAuthToken } from '@client/lib/api-client';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import FreeBookConfirmPage from './free-book-confirm';

const TOKEN = 'tok_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_xyz';
const BOOK = { id: 7, title: 'The First Case', tagline: 'Every family keeps one secret.', coverImage: '/images/covers/first-case.jpg' };
const PAGE = { slug: 'the-first-case', pitch: 'A prequel.', format: 'ebook', formatLabel: 'E-Book', book: BOOK };
const CONFIRMED = { success: true, message: FREE_BOOK_MESSAGES.claimed, user: { id: 12, role: 'user' }, token: 'bearer-from-claim', book: BOOK, format: 'ebook', formatLabel: 'E-Book' };
const confirmCalls = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([url]) => String(url).endsWith('/api/free-books/confirm'));
const open = (path: string) => renderWithRouter([{ path: '/free/:slug/confirm', element: <FreeBookConfirmPage /> }], path);
const base = {
  '/api/csrf-token': () => json({ csrfToken: 't' }),
  '/api/free-books/the-first-case': () => json(PAGE),
  '/api/users/check-auth': () => json({ isAuthenticated: true, user: { id: 12, role: 'user' } }),
};

describe('/free/{slug}/confirm', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('opening the page only shows the button; pressing it signs in and offers the library, reading and Send to Kindle', async () => {
    const fetch = mockFetch({ ...base, '/api/free-books/confirm': () => json(CONFIRMED) });
    open(`/free/the-first-case/confirm?token=${TOKEN}`);
    const button = await screen.findByRole('button', { name: 'Get my free book' });
    expect(screen.getByRole('heading', { name: 'Get your free book' })).toBeInTheDocument();
    expect(confirmCalls(fetch)).toHaveLength(0);
    fireEvent.click(button);
    expect(await screen.findByRole('heading', { name: 'The book is yours' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your free book is in your library. Welcome to the Thriller Circle!');
    expect(screen.getByRole('link', { name: 'Open your library' })).toHaveAttribute('href', '/profile#library');
    expect(screen.getByRole('link', { name: 'Read now' })).toHaveAttribute('href', '/read/7/ebook');
    expect(screen.getByRole('button', { name: 'Send The First Case to Kindle' })).toBeInTheDocument();
    expect(getAuthToken()).toBe('bearer-from-claim');
    const [[, init]] = confirmCalls(fetch);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ token: TOKEN });
  });

  it('offers listening, and no Send to Kindle, for an audiobook', async () => {
    mockFetch({ ...base, '/api/free-books/confirm': () => json({ ...CONFIRMED, format: 'audiobook', formatLabel: 'Audiobook' }) });
    open(`/free/the-first-case/confirm?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Get my free book' }));
    expect(await screen.findByRole('link', { name: 'Listen now' })).toHaveAttribute('href', '/listen/7');
    expect(screen.queryByRole('button', { name: /to Kindle/ })).not.toBeInTheDocument();
  });

  it('sends a reader whose link was used to sign in, and no button to press again', async () => {
    mockFetch({ ...base, '/api/free-books/confirm': () => json({ code: 'CLAIM_USED', message: FREE_BOOK_MESSAGES.confirmUsed }, 409) });
    open(`/free/the-first-case/confirm?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Get my free book' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link does not work');
    expect(alert).toHaveTextContent(FREE_BOOK_MESSAGES.confirmUsed);
    expect(screen.getByRole('link', { name: 'Go to Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Get my free book' })).not.toBeInTheDocument();
  });

  it('sends a reader whose link expired back to ask again', async () => {
    mockFetch({ ...base, '/api/free-books/confirm': () => json({ code: 'BAD_REQUEST', message: FREE_BOOK_MESSAGES.confirmExpired }, 400) });
    open(`/free/the-first-case/confirm?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Get my free book' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(FREE_BOOK_MESSAGES.confirmExpired);
    expect(screen.getByRole('link', { name: 'Ask for the book again' })).toHaveAttribute('href', '/free/the-first-case');
  });

  it('without a token says the link is not complete and posts nothing', async () => {
    const fetch = mockFetch(base);
    open('/free/the-first-case/confirm');
    expect(await screen.findByRole('alert')).toHaveTextContent(FREE_BOOK_MESSAGES.confirmIncomplete);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(confirmCalls(fetch)).toHaveLength(0);
  });
});
