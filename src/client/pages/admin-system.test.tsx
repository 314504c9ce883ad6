import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SystemStatus } from '@shared/schemas/system';
import AdminSystemPage from '@client/pages/admin-system';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { json, mockFetch, renderAt } from '@client/test/render';

const status: SystemStatus = {
  version: '1.0.0',
  nodeVersion: 'v24.21.0',
  startedAt: '2026-11-21T09:00:00.000Z',
  database: 'postgres',
  fileStore: { kind: 's3', location: 's3://site-files at https://s3.example.com' },
  payments: 'stripe',
  redis: 'unavailable',
  smtpConfigured: true,
  mail: { pending: 3, failed: 2, kept: 0, sent: 120 },
  jobs: [
    {
      name: 'stripe-reconcile',
      status: 'pending',
      nextRunAt: '2026-11-21T12:10:00.000Z',
      lastFinishedAt: '2026-11-21T12:00:00.000Z',
      lastError: null,
      attempts: 0,
    },
  ],
  reconciliation: { lastRunAt: '2026-11-21T12:00:00.000Z', checked: 14, repaired: 1, lastError: null },
  webhookFailures: [{ id: 7, at: '2026-11-21T11:30:00.000Z', reason: 'mismatch', eventId: 'evt_123' }],
  forgedWebhooks: { last24Hours: 41, last7Days: 950, lastAt: '2026-11-21T11:58:00.000Z' },
};

function row(label: string) {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('admin System page', () => {
  beforeEach(() => act(() => resetToastStore()));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the health in words', async () => {
    mockFetch({ '/api/admin/system': () => json(status) });
    renderAt(<AdminSystemPage />, '/admin/system');
    expect(await screen.findByRole('heading', { name: 'System' })).toBeInTheDocument();
    await screen.findByText('Version', { selector: 'dt' });
    expect(row('Version')).toHaveTextContent('1.0.0');
    expect(row('Database')).toHaveTextContent('PostgreSQL');
    expect(row('File store')).toHaveTextContent('S3-compatible storage');
    expect(row('File store')).toHaveTextContent('s3://site-files at https://s3.example.com');
    expect(row('Payments')).toHaveTextContent('Stripe');
    expect(row('Redis')).toHaveTextContent('Unreachable: limits count per instance');
    expect(row('Waiting to go out')).toHaveTextContent('3');
    expect(row('Paid sessions checked')).toHaveTextContent('14');
    expect(row('Repaired')).toHaveTextContent('1');
    expect(screen.getByText('Stripe reconciliation')).toBeInTheDocument();
    expect(screen.getByText(/Amount or currency mismatch/)).toBeInTheDocument();
    expect(screen.getByText('evt_123')).toBeInTheDocument();
    // Forged posts are a count of their own, apart from the failures of real events.
    expect(screen.getByRole('heading', { name: 'Forged webhooks' })).toBeInTheDocument();
    expect(row('Last 24 hours')).toHaveTextContent('41');
    expect(row('Last 7 days')).toHaveTextContent('950');
    expect(row('Most recent')).not.toHaveTextContent('None');
  });

  it('"Retry" sends the failed mail again and says so', async () => {
    let retried = false;
    const fetchMock = mockFetch({
      '/api/admin/system': () => json(retried ? { ...status, mail: { ...status.mail, failed: 0, pending: 5 } } : status),
      '/api/admin/system/mail/retry': () => {
        retried = true;
        return json({ retried: 2, message: '2 messages will be sent again.' });
      },
      '/api/csrf-token': () => json({ csrfToken: 'token' }),
    });
    renderAt(
      <>
        <AdminSystemPage />
        <Toaster />
      </>,
      '/admin/system',
    );
    await screen.findByText('Failed', { selector: 'dt' });
    await userEvent.click(within(row('Failed')).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('2 messages will be sent again.')).toBeInTheDocument();
    await waitFor(() => expect(row('Waiting to go out')).toHaveTextContent('5'));
    expect(within(row('Failed')).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url, init]) => String(url).endsWith('/mail/retry') && init?.method === 'POST');
    expect(post).toBeDefined();
  });

  it('says when Stripe is not in use and no SMTP server is configured', async () => {
    mockFetch({
      '/api/admin/system': () =>
        json({
          ...status,
          payments: 'local',
          reconciliation: null,
          smtpConfigured: false,
          webhookFailures: [],
          forgedWebhooks: { last24Hours: 0, last7Days: 0, lastAt: null },
          jobs: [],
        }),
    });
    renderAt(<AdminSystemPage />, '/admin/system');
    expect(await screen.findByText('Only with Stripe: the test payment page has nothing to reconcile.')).toBeInTheDocument();
    expect(screen.getByText('No SMTP server configured')).toBeInTheDocument();
    expect(screen.getByText('None.')).toBeInTheDocument();
    expect(row('Most recent')).toHaveTextContent('None');
  });
});
