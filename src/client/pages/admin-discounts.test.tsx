import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Discount, DISCOUNT_MESSAGES } from '@shared/schemas/discounts';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminDiscountsPage from './admin-discounts';

const code = (over: Partial<Discount> & { id: number; code: string }): Discount => ({
  percentOff: null,
  amountOff: null,
  formats: null,
  expiresAt: null,
  maxRedemptions: null,
  redemptions: 0,
  active: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

/** A page of codes as the server answers it. */
const page = (items: Discount[], nextCursor: string | null = null) => json({ items, nextCursor });

function renderPage(handlers: Parameters<typeof mockFetch>[0]) {
  const fetch = mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'tok' }), ...handlers });
  renderWithRouter([{ path: '/admin/discounts', element: <><AdminDiscountsPage /><Toaster /></> }], '/admin/discounts');
  return fetch;
}

describe('/admin/discounts', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists codes with their discount, formats, expiry, uses and status', async () => {
    renderPage({
      '/api/admin/discounts': () =>
        page([
          code({ id: 1, code: 'LAUNCH20', percentOff: 20, formats: ['ebook', 'hardcover'], maxRedemptions: 100, redemptions: 12 }),
          code({ id: 2, code: 'FIVER', amountOff: 500, active: false }),
          code({ id: 3, code: 'GONE', percentOff: 10, maxRedemptions: 2, redemptions: 2 }),
        ]),
    });
    expect(screen.getByRole('heading', { name: 'Discount Codes' })).toBeInTheDocument();
    const launch = await screen.findByTestId('discount-1');
    expect(within(launch).getByText('20% off')).toBeInTheDocument();
    expect(within(launch).getByText('E-Book, Hardcover')).toBeInTheDocument();
    expect(within(launch).getByText('12 of 100')).toBeInTheDocument();
    expect(within(launch).getByText('Active')).toBeInTheDocument();
    const fiver = screen.getByTestId('discount-2');
    expect(within(fiver).getByText('£5.00 off')).toBeInTheDocument();
    expect(within(fiver).getByText('All formats')).toBeInTheDocument();
    expect(within(fiver).getByText('Never')).toBeInTheDocument();
    expect(within(fiver).getByText('Inactive')).toBeInTheDocument();
    expect(within(screen.getByTestId('discount-3')).getByText('Used up')).toBeInTheDocument();
  });

  it('shows the shared schema messages and sends nothing for a bad code', async () => {
    const fetch = renderPage({ '/api/admin/discounts': () => page([]) });
    await screen.findByText('No discount codes yet.');
    const form = screen.getByRole('form', { name: 'New discount code' });
    fireEvent.change(within(form).getByLabelText('Code'), { target: { value: 'has space' } });
    fireEvent.change(within(form).getByLabelText('Percent off'), { target: { value: '120' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Code' }));
    expect(await within(form).findByText('Code may contain letters, numbers, dashes and underscores only')).toBeInTheDocument();
    expect(within(form).getByText('Percentage off must be a whole number from 1 to 100')).toBeInTheDocument();
    expect(within(form).getByLabelText('Code')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(false);
  });

  it('creates an amount-off code in pence for chosen formats, and shows a server refusal on the field', async () => {
    const sent: unknown[] = [];
    let duplicate = false;
    renderPage({
      '/api/admin/discounts': (_url, init) => {
        if (init.method !== 'POST') return page([]);
        sent.push(JSON.parse(String(init.body)));
        return duplicate
          ? json({ message: 'A discount code with this code already exists', code: 'CONFLICT', fields: { code: 'A discount code with this code already exists' } }, 409)
          : json(code({ id: 9, code: 'SPRING', amountOff: 250 }), 201);
      },
    });
    await screen.findByText('No discount codes yet.');
    const form = screen.getByRole('form', { name: 'New discount code' });
    fireEvent.change(within(form).getByLabelText('Code'), { target: { value: 'SPRING' } });
    fireEvent.change(within(form).getByLabelText('Discount'), { target: { value: 'amount' } });
    fireEvent.change(within(form).getByLabelText('Pounds off'), { target: { value: '2.50' } });
    fireEvent.click(within(form).getByLabelText('Paperback'));
    fireEvent.change(within(form).getByLabelText('Maximum uses'), { target: { value: '50' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Code' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ code: 'SPRING', percentOff: null, amountOff: 250, formats: ['paperback'], expiresAt: null, maxRedemptions: 50, active: true });
    expect(await screen.findByText('Discount code created')).toBeInTheDocument();

    duplicate = true;
    fireEvent.change(within(form).getByLabelText('Code'), { target: { value: 'spring' } });
    fireEvent.change(within(form).getByLabelText('Percent off'), { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Code' }));
    expect(await within(form).findByText('A discount code with this code already exists')).toBeInTheDocument();
  });

  it("shows the server's refusal of an expiry that has passed on the Expires field", async () => {
    const message = DISCOUNT_MESSAGES.expiryPast;
    renderPage({
      '/api/admin/discounts': (_url, init) =>
        init.method === 'POST' ? json({ message, code: 'VALIDATION_ERROR', fields: { expiresAt: message } }, 400) : page([]),
    });
    await screen.findByText('No discount codes yet.');
    const form = screen.getByRole('form', { name: 'New discount code' });
    fireEvent.change(within(form).getByLabelText('Code'), { target: { value: 'GONE' } });
    fireEvent.change(within(form).getByLabelText('Percent off'), { target: { value: '10' } });
    fireEvent.change(within(form).getByLabelText('Expires'), { target: { value: '2020-01-01T09:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Code' }));
    const error = await within(form).findByText(message);
    expect(within(form).getByLabelText('Expires')).toHaveAttribute('aria-describedby', error.id);
    // Nothing was saved: the form keeps what the author typed.
    expect(within(form).getByLabelText('Code')).toHaveValue('GONE');
  });

  it('edits a code in place with PUT', async () => {
    const puts: Array<{ url: string; body: unknown }> = [];
    renderPage({
      '/api/admin/discounts': () => page([code({ id: 4, code: 'READERS', percentOff: 15 })]),
      '/api/admin/discounts/4': (url, init) => {
        puts.push({ url, body: JSON.parse(String(init.body)) });
        return json(code({ id: 4, code: 'READERS', percentOff: 15, active: false }));
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit READERS' }));
    const form = screen.getByRole('form', { name: 'Edit READERS' });
    expect(within(form).getByLabelText('Percent off')).toHaveValue(15);
    fireEvent.click(within(form).getByLabelText('Active'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].body).toMatchObject({ code: 'READERS', percentOff: 15, active: false });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit READERS' })).not.toBeInTheDocument());
  });

  it('shows more codes from the cursor, and none once the last page is in', async () => {
    const fetch = renderPage({
      '/api/admin/discounts': (url) =>
        new URL(url, 'http://localhost').searchParams.get('after') === 'c1'
          ? page([code({ id: 3, code: 'ZEBRA', percentOff: 5 })])
          : page([code({ id: 1, code: 'ALPHA', percentOff: 5 }), code({ id: 2, code: 'BRAVO', percentOff: 5 })], 'c1'),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    expect(await screen.findByTestId('discount-3')).toHaveTextContent('ZEBRA');
    expect(screen.getByTestId('discount-1')).toHaveTextContent('ALPHA');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    const lists = fetch.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/admin/discounts'));
    expect(lists).toEqual(['/api/admin/discounts?', '/api/admin/discounts?after=c1']);
  });
});
