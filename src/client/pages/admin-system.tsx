/** /admin/system: the site's health in words for the author or operator (issue 16, point 5). */
import type { ReactNode } from 'react';
import type { SystemStatus } from '@shared/schemas/system';
import { Alert } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { toast } from '@client/components/ui/toast-store';
import { AdminFrame, QueryState } from '@client/features/admin/components/admin-frame';
import { formatDateTime } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';
import { useRetryFailedMail, useSystemStatus } from '@client/features/admin/system-api';

const DATABASE = { pglite: 'PGlite (built in, one instance)', postgres: 'PostgreSQL' } as const;
const STORE = { disk: 'Local disk', s3: 'S3-compatible storage' } as const;
const PAYMENTS = { local: 'Test payment page (no money moves)', stripe: 'Stripe' } as const;
const REDIS = { ok: 'Connected', unavailable: 'Unreachable: limits count per instance', 'not configured': 'Not configured' } as const;
const JOB_NAMES: Record<string, string> = { 'mail-dispatch': 'Mail dispatch', 'stripe-reconcile': 'Stripe reconciliation' };
const REASONS: Record<string, string> = {
  mismatch: 'Amount or currency mismatch',
  'unknown-session': 'Unknown checkout session',
  error: 'Server error',
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-ink-800 py-3 last:border-0 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-bone-300">{label}</dt>
      <dd className="min-w-0 break-words text-bone-50">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-6">
      <h2 className="mb-2 font-display text-xl font-semibold text-bone-50">{title}</h2>
      {children}
    </Card>
  );
}

function MailSection({ status }: { status: SystemStatus }) {
  const retry = useRetryFailedMail();
  const { mail } = status;
  const onRetry = async () => {
    try {
      const result = await retry.mutateAsync();
      toast({ title: 'Mail', description: result.message });
    } catch (error) {
      toast({ title: 'Error', description: `Could not retry: ${errorText(error)}`, variant: 'destructive' });
    }
  };
  return (
    <Section title="Mail outbox">
      {!status.smtpConfigured ? (
        <Alert title="No SMTP server configured">Messages are kept in the outbox and not sent. Set SMTP_URL to send them.</Alert>
      ) : null}
      <dl>
        <Row label="Waiting to go out">{mail.pending}</Row>
        <Row label="Failed">
          <span className="flex flex-wrap items-center gap-3">
            {mail.failed}
            {mail.failed > 0 ? (
              <Button size="sm" onClick={onRetry} disabled={retry.isPending}>
                {retry.isPending ? 'Retrying…' : 'Retry'}
              </Button>
            ) : null}
          </span>
        </Row>
        <Row label="Kept (no SMTP)">{mail.kept}</Row>
        <Row label="Sent">{mail.sent}</Row>
      </dl>
    </Section>
  );
}

function SystemView({ status }: { status: SystemStatus }) {
  const rec = status.reconciliation;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section title="Site">
        <dl>
          <Row label="Version">{status.version}</Row>
          <Row label="Node.js">{status.nodeVersion}</Row>
          <Row label="Running since">{formatDateTime(status.startedAt)}</Row>
          <Row label="Database">{DATABASE[status.database]}</Row>
          <Row label="File store">
            {STORE[status.fileStore.kind]}
            <span className="block text-sm text-bone-300">{status.fileStore.location}</span>
          </Row>
          <Row label="Payments">{PAYMENTS[status.payments]}</Row>
          <Row label="Redis">{REDIS[status.redis]}</Row>
        </dl>
      </Section>
      <MailSection status={status} />
      <Section title="Payments reconciliation">
        {rec ? (
          <dl>
            <Row label="Last run">{rec.lastRunAt ? formatDateTime(rec.lastRunAt) : 'Not run yet'}</Row>
            <Row label="Paid sessions checked">{rec.checked ?? '—'}</Row>
            <Row label="Repaired">{rec.repaired ?? '—'}</Row>
            {rec.lastError ? <Row label="Last error">{rec.lastError}</Row> : null}
          </dl>
        ) : (
          <p className="text-bone-300">Only with Stripe: the test payment page has nothing to reconcile.</p>
        )}
      </Section>
      <Section title="Jobs">
        {status.jobs.length === 0 ? (
          <p className="text-bone-300">No jobs.</p>
        ) : (
          <ul className="grid gap-3">
            {status.jobs.map((job) => (
              <li key={`${job.name}-${job.nextRunAt}`} className="rounded-lg border border-ink-800 p-3">
                <div className="flex flex-wrap items-center gap-2 font-semibold text-bone-50">
                  {JOB_NAMES[job.name] ?? job.name}
                  {job.status === 'failed' ? <Badge variant="accent">Failed</Badge> : job.lastError ? <Badge variant="accent">Retrying</Badge> : null}
                </div>
                <p className="text-sm text-bone-300">
                  {job.lastFinishedAt ? `Last finished ${formatDateTime(job.lastFinishedAt)}. ` : 'Not run yet. '}
                  {job.status === 'pending' ? `Next run ${formatDateTime(job.nextRunAt)}.` : null}
                </p>
                {job.lastError ? <p className="text-sm text-blood-300">{job.lastError}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Recent webhook failures">
        <p className="mb-2 text-sm text-bone-300">Signed Stripe events the site could not fulfil.</p>
        {status.webhookFailures.length === 0 ? (
          <p className="text-bone-300">None.</p>
        ) : (
          <ul className="grid gap-2">
            {status.webhookFailures.map((f) => (
              <li key={f.id} className="text-sm text-bone-100">
                <span className="text-bone-300">{formatDateTime(f.at)}</span> — {REASONS[f.reason] ?? f.reason}
                {f.eventId ? <span className="block break-all text-bone-400">{f.eventId}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <ForgedWebhooksSection forged={status.forgedWebhooks} />
    </div>
  );
}

/** Posts without a valid Stripe signature: counted apart, so a flood of them cannot hide a real failure. */
function ForgedWebhooksSection({ forged }: { forged: SystemStatus['forgedWebhooks'] }) {
  return (
    <Section title="Forged webhooks">
      <p className="mb-2 text-sm text-bone-300">
        Posts to the webhook address without a valid Stripe signature. They are refused and change nothing.
      </p>
      <dl>
        <Row label="Last 24 hours">{forged.last24Hours}</Row>
        <Row label="Last 7 days">{forged.last7Days}</Row>
        <Row label="Most recent">{forged.lastAt ? formatDateTime(forged.lastAt) : 'None'}</Row>
      </dl>
    </Section>
  );
}

export default function AdminSystemPage() {
  const status = useSystemStatus();
  return (
    <AdminFrame title="System" intro={<p>How the site is running: where it keeps its data, its mail, jobs and payments.</p>}>
      <QueryState query={status}>{() => (status.data ? <SystemView status={status.data} /> : null)}</QueryState>
    </AdminFrame>
  );
}
