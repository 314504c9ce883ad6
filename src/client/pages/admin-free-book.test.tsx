import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AdminFreeBook, FREE_BOOK_MESSAGES } from '@shared/schemas/free-books';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminFreeBookPage from './admin-free-book';

const books = [
  { id: 3, title: 'What We Owe the Dead' },
  { id: 5, title: 'The First Case' },
];

const offer: AdminFreeBook = {
  id: 4,
  bookId: 5,
  bookTitle: 'The First Case',
  format: 'ebook',
  formatLabel: 'E-Book',
  slug: 'the-first-case',
  pitch: 'A short prequel.',
  active: true,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  totals: { requested: 12, claimed: 9, boughtLater: 2 },
  sources: [
    { source: 'bookbub', requested: 8, claimed: 7, boughtLater: 2 },
    { source: null, requested: 4, claimed: 2, boughtLater: 0 },
  ],
};

function renderPage(handlers: Parameters<typeof mockFetch>[0]) {
  const fetch = mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'tok' }), '/api/books': () => json(books), ...handlers });
  renderWithRouter([{ path: '/admin/free-book', element: <><AdminFreeBookPage /><Toaster /></> }], '/admin/free-book');
  return fetch;
}

const writes = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([, init]) => ['POST', 'PUT', 'DELETE'].includes(String((init as RequestInit | undefined)?.method)));

describe('/admin/free-book', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each offer with its address, status and the claims per source', async () => {
    renderPage({ '/api/admin/free-books': () => json([offer]) });
    expect(screen.getByRole('heading', { name: 'Free book' })).toBeInTheDocument();
    const card = await screen.findByTestId('free-book-4');
    expect(within(card).getByRole('heading', { name: 'The First Case (E-Book)' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '/free/the-first-case' })).toHaveAttribute('href', '/free/the-first-case');
    expect(within(card).getByText('On offer')).toBeInTheDocument();
    const rows = within(card).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['SourceRequestedClaimedBought later', 'bookbub872', 'No source420', 'All sources1292']);
  });

  it('shows the shared schema messages and sends nothing', async () => {
    const fetch = renderPage({ '/api/admin/free-books': () => json([]) });
    await screen.findByText('No free books yet.');
    const form = screen.getByRole('form', { name: 'New free book' });
    fireEvent.change(within(form).getByLabelText('Address: /free/…'), { target: { value: 'Not A Slug' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Free Book' }));
    expect(await within(form).findByText(FREE_BOOK_MESSAGES.bookId)).toBeInTheDocument();
    expect(within(form).getByText(FREE_BOOK_MESSAGES.slug)).toBeInTheDocument();
    expect(within(form).getByText(FREE_BOOK_MESSAGES.pitch)).toBeInTheDocument();
    expect(writes(fetch)).toHaveLength(0);
  });

  it('creates an offer, its address taken from the chosen title, and shows the server refusing a taken address', async () => {
    let taken = true;
    const fetch = renderPage({
      '/api/admin/free-books': (_url, init) => {
        if (init.method !== 'POST') return json([]);
        if (taken) {
          taken = false;
          return json({ code: 'CONFLICT', message: FREE_BOOK_MESSAGES.slugTaken, fields: { slug: FREE_BOOK_MESSAGES.slugTaken } }, 409);
        }
        return json(offer, 201);
      },
    });
    await screen.findByText('No free books yet.');
    const form = screen.getByRole('form', { name: 'New free book' });
    fireEvent.change(within(form).getByLabelText('Book'), { target: { value: '5' } });
    expect(within(form).getByLabelText('Address: /free/…')).toHaveValue('the-first-case');
    fireEvent.change(within(form).getByLabelText('Format'), { target: { value: 'audiobook' } });
    fireEvent.change(within(form).getByLabelText('Pitch'), { target: { value: 'A short prequel.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Free Book' }));
    expect(await within(form).findByText(FREE_BOOK_MESSAGES.slugTaken)).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: 'Create Free Book' }));
    expect(await screen.findByText('Free book created')).toBeInTheDocument();
    await waitFor(() => expect(writes(fetch)).toHaveLength(2));
    expect(JSON.parse(String(writes(fetch)[1][1]?.body))).toEqual({ bookId: 5, format: 'audiobook', slug: 'the-first-case', pitch: 'A short prequel.', active: true });
  });

  it('switches an offer off and removes one after asking', async () => {
    const fetch = renderPage({
      '/api/admin/free-books': () => json([offer]),
      '/api/admin/free-books/4': (_url, init) => (init.method === 'DELETE' ? json({ success: true, message: 'Free book removed' }) : json({ ...offer, active: false })),
    });
    const card = await screen.findByTestId('free-book-4');
    fireEvent.click(within(card).getByRole('button', { name: 'Switch off /free/the-first-case' }));
    expect(await screen.findByText('Free book switched off')).toBeInTheDocument();
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toMatchObject({ active: false, slug: 'the-first-case', bookId: 5 });

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    fireEvent.click(within(card).getByRole('button', { name: 'Remove /free/the-first-case' }));
    expect(await screen.findByText('Free book removed')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith('Remove /free/the-first-case and its figures? Readers who claimed it keep their copy.');
    expect(writes(fetch).at(-1)?.[1]?.method).toBe('DELETE');
  });
});
