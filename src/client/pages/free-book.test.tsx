import { fireEvent, screen } from '@testing-library/react';
import { FREE_BOOK_MESSAGES } from '@shared/schemas/free-books';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import FreeBookPage from './free-book';

const PAGE = {
  slug: 'the-first-case',
  pitch: 'A short prequel: the night the Calloway brothers first lied for each other.\n\nFree for readers of the Thriller Circle.',
  format: 'ebook',
  formatLabel: 'E-Book',
  book: { id: 7, title: 'The First Case', tagline: 'Every family keeps one secret.', coverImage: '/images/covers/first-case.jpg' },
};
const claimCalls = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([url]) => String(url).endsWith('/claim'));
const open = (path: string) => renderWithRouter([{ path: '/free/:slug', element: <FreeBookPage /> }], path);

describe('/free/{slug}', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the cover, title, pitch and one email box; sends the address with the source and says to check the mail', async () => {
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/free-books/the-first-case': () => json(PAGE),
      '/api/free-books/the-first-case/claim': () => json({ success: true, message: FREE_BOOK_MESSAGES.sent }),
    });
    open('/free/the-first-case?source=BookBub');
    expect(await screen.findByRole('heading', { level: 1, name: 'The First Case' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Front cover of The First Case' })).toBeInTheDocument();
    expect(screen.getByText('Free E-Book for the Thriller Circle')).toBeInTheDocument();
    expect(screen.getByText('A short prequel: the night the Calloway brothers first lied for each other.')).toBeInTheDocument();
    expect(screen.getByText('Free for readers of the Thriller Circle.')).toBeInTheDocument();
    expect(screen.getAllByRole('textbox')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Where should we send it?'), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me the book' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(claimCalls(fetch)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Where should we send it?'), { target: { value: ' reader@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me the book' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(FREE_BOOK_MESSAGES.sent);
    expect(screen.queryByRole('button', { name: 'Send me the book' })).not.toBeInTheDocument();
    const [[, init]] = claimCalls(fetch);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'reader@example.com', source: 'BookBub' });
  });

  it('leaves out a source the server would refuse, so the visitor is not blocked', async () => {
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/free-books/the-first-case': () => json(PAGE),
      '/api/free-books/the-first-case/claim': () => json({ success: true, message: FREE_BOOK_MESSAGES.sent }),
    });
    open('/free/the-first-case?source=spring%20sale!');
    fireEvent.change(await screen.findByLabelText('Where should we send it?'), { target: { value: 'reader@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me the book' }));
    await screen.findByText('Check your email');
    expect(JSON.parse(String(claimCalls(fetch)[0][1]?.body))).toEqual({ email: 'reader@example.com' });
  });

  it('shows the refusal of an address that left the list beside the box, and keeps the form', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/free-books/the-first-case': () => json(PAGE),
      '/api/free-books/the-first-case/claim': () =>
        json({ code: 'ADDRESS_SUPPRESSED', message: FREE_BOOK_MESSAGES.suppressed, fields: { email: FREE_BOOK_MESSAGES.suppressed } }, 409),
    });
    open('/free/the-first-case');
    fireEvent.change(await screen.findByLabelText('Where should we send it?'), { target: { value: 'gone@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send me the book' }));
    expect(await screen.findByText(FREE_BOOK_MESSAGES.suppressed)).toBeInTheDocument();
    expect(screen.getByLabelText('Where should we send it?')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Send me the book' })).toBeEnabled();
  });

  it('says so when nothing is on offer at that address', async () => {
    mockFetch({ '/api/free-books/gone': () => json({ code: 'NOT_FOUND', message: FREE_BOOK_MESSAGES.notOffered }, 404) });
    open('/free/gone');
    expect(await screen.findByText('This free book is not on offer at the moment.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See all books' })).toHaveAttribute('href', '/books');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
