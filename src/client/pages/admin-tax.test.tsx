import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TAX_MESSAGES, type TaxReport, type TaxSettings } from '@shared/schemas/tax';
import { Toaster } from '@client/components/ui/toaster';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import AdminTaxPage from './admin-tax';

const settings: TaxSettings = { pricesIncludeTax: true, defaultRate: 0, rates: [{ country: 'GB', format: 'ebook', rate: 20 }] };
const emptyReport: TaxReport = { rows: [], net: 0, tax: 0, displayNet: '£0.00', displayTax: '£0.00' };

function renderPage(handlers: Parameters<typeof mockFetch>[0]) {
  const fetch = mockFetch({ '/api/csrf-token': () => json({ csrfToken: 'tok' }), '/api/admin/tax/report': () => json(emptyReport), ...handlers });
  renderWithRouter([{ path: '/admin/tax', element: <><AdminTaxPage /><Toaster /></> }], '/admin/tax');
  return fetch;
}

const puts = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'PUT');

describe('/admin/tax', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the setting and the rate table as saved', async () => {
    renderPage({ '/api/admin/tax': () => json(settings) });
    expect(screen.getByRole('heading', { name: 'Tax' })).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: 'Tax rates' });
    expect(within(form).getByLabelText('Prices include tax')).toBeChecked();
    expect(within(form).getByLabelText('Default rate (%)')).toHaveValue(0);
    const first = within(form).getByRole('group', { name: 'Rate 1' });
    expect(within(first).getByLabelText('Country')).toHaveValue('GB');
    expect(within(first).getByLabelText('Format')).toHaveValue('ebook');
    expect(within(first).getByLabelText('Rate (%)')).toHaveValue(20);
    expect(await screen.findByText('No taxed sales yet.')).toBeInTheDocument();
  });

  it('shows the shared schema messages on the fields and sends nothing', async () => {
    const fetch = renderPage({ '/api/admin/tax': () => json(settings) });
    const form = await screen.findByRole('form', { name: 'Tax rates' });
    fireEvent.change(within(form).getByLabelText('Default rate (%)'), { target: { value: '101' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add Rate' }));
    const second = within(form).getByRole('group', { name: 'Rate 2' });
    fireEvent.change(within(second).getByLabelText('Country'), { target: { value: 'G1' } });
    fireEvent.change(within(second).getByLabelText('Rate (%)'), { target: { value: '5.555' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Tax Settings' }));
    const rateError = await within(form).findAllByText(TAX_MESSAGES.rate);
    expect(rateError).toHaveLength(2);
    expect(within(form).getByLabelText('Default rate (%)')).toHaveAttribute('aria-describedby', rateError[0].id);
    expect(within(second).getByText(TAX_MESSAGES.country)).toBeInTheDocument();
    expect(within(second).getByLabelText('Country')).toHaveAttribute('aria-invalid', 'true');
    expect(puts(fetch)).toHaveLength(0);
  });

  it('names a country and format given two rates', async () => {
    const fetch = renderPage({ '/api/admin/tax': () => json(settings) });
    const form = await screen.findByRole('form', { name: 'Tax rates' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add Rate' }));
    const second = within(form).getByRole('group', { name: 'Rate 2' });
    fireEvent.change(within(second).getByLabelText('Country'), { target: { value: 'gb' } });
    fireEvent.change(within(second).getByLabelText('Rate (%)'), { target: { value: '5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Tax Settings' }));
    expect(await within(second).findByText(TAX_MESSAGES.duplicate('GB', 'ebook'))).toBeInTheDocument();
    expect(puts(fetch)).toHaveLength(0);
  });

  it('saves the whole table with PUT and says so', async () => {
    const sent: unknown[] = [];
    renderPage({
      '/api/admin/tax': (_url, init) => {
        if (init.method !== 'PUT') return json(settings);
        const body = JSON.parse(String(init.body)) as TaxSettings;
        sent.push(body);
        return json(body);
      },
    });
    const form = await screen.findByRole('form', { name: 'Tax rates' });
    fireEvent.click(within(form).getByLabelText('Tax is added at checkout'));
    fireEvent.change(within(form).getByLabelText('Default rate (%)'), { target: { value: '7.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add Rate' }));
    const second = within(form).getByRole('group', { name: 'Rate 2' });
    fireEvent.change(within(second).getByLabelText('Country'), { target: { value: 'de' } });
    fireEvent.change(within(second).getByLabelText('Format'), { target: { value: 'audiobook' } });
    fireEvent.change(within(second).getByLabelText('Rate (%)'), { target: { value: '19' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Tax Settings' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      pricesIncludeTax: false,
      defaultRate: 7.5,
      rates: [
        { country: 'GB', format: 'ebook', rate: 20 },
        { country: 'DE', format: 'audiobook', rate: 19 },
      ],
    });
    expect(await screen.findByText('Tax settings saved')).toBeInTheDocument();
    expect(screen.getByText('2 rates, default 7.5%.')).toBeInTheDocument();
  });

  it('removes a rate', async () => {
    const sent: unknown[] = [];
    renderPage({
      '/api/admin/tax': (_url, init) => {
        if (init.method !== 'PUT') return json(settings);
        sent.push(JSON.parse(String(init.body)));
        return json({ ...settings, rates: [] });
      },
    });
    const form = await screen.findByRole('form', { name: 'Tax rates' });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove rate 1' }));
    expect(within(form).getByText('No rates yet: every sale pays the default rate.')).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: 'Save Tax Settings' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ pricesIncludeTax: true, defaultRate: 0, rates: [] });
  });

  it('lists the tax report per quarter, country and rate, with totals and the CSV link', async () => {
    renderPage({
      '/api/admin/tax': () => json(settings),
      '/api/admin/tax/report': () =>
        json({
          rows: [
            { quarter: '2026-Q4', country: 'GB', rate: 20, net: 1000, tax: 200, displayNet: '£10.00', displayTax: '£2.00' },
            { quarter: '2026-Q4', country: 'DE', rate: null, net: 500, tax: 95, displayNet: '£5.00', displayTax: '£0.95' },
          ],
          net: 1500,
          tax: 295,
          displayNet: '£15.00',
          displayTax: '£2.95',
        } satisfies TaxReport),
    });
    const table = await screen.findByRole('table', { name: 'Net and tax per quarter, country and rate' });
    const rows = within(table).getAllByRole('row').map((r) => r.textContent);
    expect(rows.slice(1)).toEqual(['2026-Q4GB20%£10.00£2.00', '2026-Q4DEStripe Tax£5.00£0.95', 'Total£15.00£2.95']);
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/admin/tax/report.csv');
  });
});
