import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SHIPPING_MESSAGES, type ShippingZone } from '@shared/schemas/shipping';
import { TAX_MESSAGES } from '@shared/schemas/tax';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminShippingPage from './admin-shipping';

const uk: ShippingZone = { id: 1, name: 'United Kingdom', countries: ['GB'], firstItem: 350, additionalItem: 150, freeOver: 4000 };
const europe: ShippingZone = { id: 2, name: 'Europe', countries: ['FR', 'DE'], firstItem: 800, additionalItem: 300, freeOver: null };

function renderPage(handlers: Parameters<typeof mockFetch>[0]) {
  const fetch = mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'tok' }), ...handlers });
  renderWithRouter([{ path: '/admin/shipping', element: <><AdminShippingPage /><Toaster /></> }], '/admin/shipping');
  return fetch;
}

const writes = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([, init]) => ['POST', 'PUT', 'DELETE'].includes(String((init as RequestInit | undefined)?.method)));

describe('/admin/shipping', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists zones with their countries, prices and free-shipping threshold', async () => {
    renderPage({ '/api/admin/shipping-zones': () => json([europe, uk]) });
    expect(screen.getByRole('heading', { name: 'Shipping' })).toBeInTheDocument();
    const row = await screen.findByTestId('zone-1');
    expect(row.textContent).toBe('United KingdomGB£3.50£1.50£40.00EditDelete');
    expect(screen.getByTestId('zone-2').textContent).toBe('EuropeFR, DE£8.00£3.00NeverEditDelete');
  });

  it('shows the shared schema messages and sends nothing', async () => {
    const fetch = renderPage({ '/api/admin/shipping-zones': () => json([]) });
    await screen.findByText('No shipping zones yet.');
    const form = screen.getByRole('form', { name: 'New shipping zone' });
    fireEvent.change(within(form).getByLabelText('Countries'), { target: { value: 'GB, FRA' } });
    fireEvent.change(within(form).getByLabelText('First item (£)'), { target: { value: '-1' } });
    fireEvent.change(within(form).getByLabelText('Free shipping from (£)'), { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Zone' }));
    expect(await within(form).findByText(SHIPPING_MESSAGES.name)).toBeInTheDocument();
    expect(within(form).getByText(TAX_MESSAGES.country)).toBeInTheDocument();
    expect(within(form).getAllByText(SHIPPING_MESSAGES.price)).toHaveLength(2);
    expect(within(form).getByText(SHIPPING_MESSAGES.freeOver)).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(writes(fetch)).toHaveLength(0);
  });

  it('creates a zone in pence and shows a server refusal on the field', async () => {
    const sent: unknown[] = [];
    let taken = false;
    renderPage({
      '/api/admin/shipping-zones': (_url, init) => {
        if (init.method !== 'POST') return json([]);
        sent.push(JSON.parse(String(init.body)));
        const message = SHIPPING_MESSAGES.countryTaken('GB', 'United Kingdom');
        return taken ? json({ message, code: 'CONFLICT', fields: { countries: message } }, 409) : json({ ...uk, id: 7 }, 201);
      },
    });
    await screen.findByText('No shipping zones yet.');
    const form = screen.getByRole('form', { name: 'New shipping zone' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'United Kingdom' } });
    fireEvent.change(within(form).getByLabelText('Countries'), { target: { value: 'gb im, je' } });
    fireEvent.change(within(form).getByLabelText('First item (£)'), { target: { value: '3.50' } });
    fireEvent.change(within(form).getByLabelText('Each further item (£)'), { target: { value: '1.5' } });
    fireEvent.change(within(form).getByLabelText('Free shipping from (£)'), { target: { value: '40' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Zone' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ name: 'United Kingdom', countries: ['GB', 'IM', 'JE'], firstItem: 350, additionalItem: 150, freeOver: 4000 });
    expect(await screen.findByText('Shipping zone created')).toBeInTheDocument();
    expect(screen.getByText('United Kingdom: GB.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveValue('');

    taken = true;
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Islands' } });
    fireEvent.change(within(form).getByLabelText('Countries'), { target: { value: 'GB' } });
    fireEvent.change(within(form).getByLabelText('First item (£)'), { target: { value: '2' } });
    fireEvent.change(within(form).getByLabelText('Each further item (£)'), { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Zone' }));
    const error = await within(form).findByText('GB is already in the zone United Kingdom');
    expect(within(form).getByLabelText('Countries')).toHaveAttribute('aria-describedby', error.id);
    expect(sent[1]).toEqual({ name: 'Islands', countries: ['GB'], firstItem: 200, additionalItem: 0, freeOver: null });
  });

  it('edits a zone in place with PUT', async () => {
    const puts: unknown[] = [];
    renderPage({
      '/api/admin/shipping-zones': () => json([europe]),
      '/api/admin/shipping-zones/2': (_url, init) => {
        puts.push(JSON.parse(String(init.body)));
        return json({ ...europe, freeOver: 6000 });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Europe' }));
    const form = screen.getByRole('form', { name: 'Edit Europe' });
    expect(within(form).getByLabelText('Countries')).toHaveValue('FR, DE');
    expect(within(form).getByLabelText('First item (£)')).toHaveValue(8);
    fireEvent.change(within(form).getByLabelText('Free shipping from (£)'), { target: { value: '60' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ name: 'Europe', countries: ['FR', 'DE'], firstItem: 800, additionalItem: 300, freeOver: 6000 });
    expect(await screen.findByText('Shipping zone saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Europe' })).not.toBeInTheDocument());
  });

  it('deletes a zone after a second click', async () => {
    let deleted = false;
    const fetch = renderPage({
      '/api/admin/shipping-zones': () => json(deleted ? [] : [europe]),
      '/api/admin/shipping-zones/2': (_url, init) => {
        expect(init.method).toBe('DELETE');
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Europe' }));
    expect(writes(fetch)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete Europe' }));
    expect(await screen.findByText('Shipping zone deleted')).toBeInTheDocument();
    expect(screen.getByText('Europe no longer ships.')).toBeInTheDocument();
    expect(await screen.findByText('No shipping zones yet.')).toBeInTheDocument();
  });
});
