import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AdminBundle, BUNDLE_MESSAGES } from '@shared/schemas/bundles';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminBundlesPage from './admin-bundles';

const books = [
  { id: 3, title: 'What We Owe the Dead' },
  { id: 5, title: 'The Quiet Ledger' },
];

const set: AdminBundle = {
  id: 4,
  name: 'Read and listen',
  price: 1999,
  displayPrice: '£19.99',
  active: true,
  items: [
    { bookId: 3, title: 'What We Owe the Dead', format: 'ebook', formatLabel: 'E-Book', listPrice: 899, owned: false },
    { bookId: 3, title: 'What We Owe the Dead', format: 'audiobook', formatLabel: 'Audiobook', listPrice: 1599, owned: false },
  ],
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
};

function renderPage(handlers: Parameters<typeof mockFetch>[0]) {
  const fetch = mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'tok' }), '/api/books': () => json(books), ...handlers });
  renderWithRouter([{ path: '/admin/bundles', element: <><AdminBundlesPage /><Toaster /></> }], '/admin/bundles');
  return fetch;
}

const writes = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([, init]) => ['POST', 'PUT'].includes(String((init as RequestInit | undefined)?.method)));

describe('/admin/bundles', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists bundles with what they hold, their price and status', async () => {
    renderPage({ '/api/admin/bundles': () => json([set, { ...set, id: 6, name: 'Old set', active: false }]) });
    expect(screen.getByRole('heading', { name: 'Bundles' })).toBeInTheDocument();
    const row = await screen.findByTestId('bundle-4');
    expect(row.textContent).toBe('Read and listenWhat We Owe the Dead (E-Book), What We Owe the Dead (Audiobook)£19.99On saleEditSwitch off');
    expect(within(screen.getByTestId('bundle-6')).getByText('Off')).toBeInTheDocument();
    expect(within(screen.getByTestId('bundle-6')).getByRole('button', { name: 'Switch on Old set' })).toBeInTheDocument();
  });

  it('shows the shared schema messages and sends nothing', async () => {
    const fetch = renderPage({ '/api/admin/bundles': () => json([]) });
    await screen.findByText('No bundles yet.');
    const form = screen.getByRole('form', { name: 'New bundle' });
    fireEvent.click(within(within(form).getByRole('group', { name: 'What We Owe the Dead' })).getByLabelText('E-Book'));
    fireEvent.change(within(form).getByLabelText('Price (£)'), { target: { value: '0.10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Bundle' }));
    expect(await within(form).findByText(BUNDLE_MESSAGES.name)).toBeInTheDocument();
    expect(within(form).getByText(BUNDLE_MESSAGES.items)).toBeInTheDocument();
    expect(within(form).getByText('The price must be a whole number of pence, at least 30p')).toBeInTheDocument();
    expect(within(form).getByLabelText('Price (£)')).toHaveAttribute('aria-invalid', 'true');
    expect(writes(fetch)).toHaveLength(0);
  });

  it('creates a bundle across books with the price in pence and says so', async () => {
    const sent: unknown[] = [];
    renderPage({
      '/api/admin/bundles': (_url, init) => {
        if (init.method !== 'POST') return json([]);
        sent.push(JSON.parse(String(init.body)));
        return json({ ...set, id: 9, name: 'Both hardcovers', displayPrice: '£40.00' }, 201);
      },
    });
    await screen.findByText('No bundles yet.');
    const form = screen.getByRole('form', { name: 'New bundle' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Both hardcovers' } });
    fireEvent.click(within(within(form).getByRole('group', { name: 'What We Owe the Dead' })).getByLabelText('Hardcover'));
    fireEvent.click(within(within(form).getByRole('group', { name: 'The Quiet Ledger' })).getByLabelText('Hardcover'));
    fireEvent.change(within(form).getByLabelText('Price (£)'), { target: { value: '40' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Bundle' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      name: 'Both hardcovers',
      items: [
        { bookId: 3, format: 'hardcover' },
        { bookId: 5, format: 'hardcover' },
      ],
      price: 4000,
      active: true,
    });
    expect(await screen.findByText('Bundle created')).toBeInTheDocument();
    expect(screen.getByText('Both hardcovers: £40.00.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveValue('');
  });

  it('edits a bundle in place with PUT', async () => {
    const puts: unknown[] = [];
    renderPage({
      '/api/admin/bundles': () => json([set]),
      '/api/admin/bundles/4': (_url, init) => {
        puts.push(JSON.parse(String(init.body)));
        return json({ ...set, price: 1799, displayPrice: '£17.99' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Read and listen' }));
    const form = screen.getByRole('form', { name: 'Edit Read and listen' });
    expect(within(form).getByLabelText('Price (£)')).toHaveValue(19.99);
    expect(within(within(form).getByRole('group', { name: 'What We Owe the Dead' })).getByLabelText('Audiobook')).toBeChecked();
    fireEvent.change(within(form).getByLabelText('Price (£)'), { target: { value: '17.99' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ name: 'Read and listen', items: [{ bookId: 3, format: 'ebook' }, { bookId: 3, format: 'audiobook' }], price: 1799, active: true });
    expect(await screen.findByText('Bundle saved')).toBeInTheDocument();
    expect(screen.getByText('Read and listen: £17.99.')).toBeInTheDocument();
  });

  it('switches a bundle off with PUT of the same bundle, active false', async () => {
    const puts: unknown[] = [];
    renderPage({
      '/api/admin/bundles': () => json([set]),
      '/api/admin/bundles/4': (_url, init) => {
        puts.push(JSON.parse(String(init.body)));
        return json({ ...set, active: false });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Switch off Read and listen' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ name: 'Read and listen', items: [{ bookId: 3, format: 'ebook' }, { bookId: 3, format: 'audiobook' }], price: 1999, active: false });
    expect(await screen.findByText('Bundle switched off')).toBeInTheDocument();
    expect(screen.getByText('Read and listen is no longer on sale.')).toBeInTheDocument();
  });
});
