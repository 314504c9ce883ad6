import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../../db/client';
import type { Clock } from '../security/crypto';
import { jobLagSeconds } from './jobs';
import { mailOutboxCounts } from '../mail/mail';

/**
 * The site's Prometheus metrics. One registry per app (tests build several apps in one process), holding
 * the process metrics, request durations per route and status, and the business counters the features
 * and runners move. Counters count on this instance; gauges that read the database are shared truths.
 */
export class SiteMetrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly orders = new Counter({
    name: 'site_orders_total',
    help: 'Purchases fulfilled, by format and by path (webhook, local payment page, reconciliation)',
    labelNames: ['format', 'source'] as const,
    registers: [this.registry],
  });
  readonly downloads = new Counter({
    name: 'site_downloads_total',
    help: 'Download links issued for purchased files, by format',
    labelNames: ['format'] as const,
    registers: [this.registry],
  });
  readonly mailSent = new Counter({
    name: 'site_mail_sent_total',
    help: 'Messages handed to the SMTP server',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly mailFailed = new Counter({
    name: 'site_mail_failed_total',
    help: 'Failed delivery attempts (each is retried until the outbox gives up)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly webhookFailures = new Counter({
    name: 'site_webhook_failures_total',
    help: 'Payment webhooks refused or not fulfilled, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly reconciliationRepairs = new Counter({
    name: 'site_reconciliation_repairs_total',
    help: 'Paid checkout sessions fulfilled by the reconciliation because their webhook never arrived',
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'site_job_runs_total',
    help: 'Job runs on this instance, by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(db: Db, clock: Clock) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'site_mail_outbox',
      help: 'Messages in the mail outbox by status (pending = waiting to go out)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const statuses = ['pending', 'failed', 'kept'] as const;
        const counts = await mailOutboxCounts(db, statuses).catch(() => null);
        if (!counts) return;
        for (const status of statuses) this.set({ status }, counts[status]);
      },
    });
    new Gauge({
      name: 'site_job_lag_seconds',
      help: 'How long the oldest due job has been waiting past its time',
      registers: [this.registry],
      async collect() {
        const lag = await jobLagSeconds(db, clock.now()).catch(() => null);
        if (lag !== null) this.set(lag);
      },
    });
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Times every request, and serves GET /metrics when METRICS_TOKEN is set (bearer token required);
 * without a token the route does not exist (404), so nothing leaks by default.
 */
export function registerMetrics(app: FastifyInstance, metrics: SiteMetrics, token: string | undefined): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: label values must stay few (and carry no tokens).
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  if (!token) return;
  app.get('/metrics', { schema: { hide: true }, config: { csrf: false } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    reply.header('Cache-Control', 'no-store');
    if (!sameToken(given, token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return reply.status(401).send({ message: 'A valid metrics token is required', code: 'UNAUTHORIZED' });
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
