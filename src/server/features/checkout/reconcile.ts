import type { AppDeps } from '../../deps';
import { handlePaymentEvent } from './fulfilment';

/** How far back the reconciliation looks, and how often it runs (and at every start, see main.ts). */
export const RECONCILE_WINDOW_MS = 48 * 60 * 60 * 1000;
export const RECONCILE_EVERY_MS = 10 * 60 * 1000;
export const RECONCILE_JOB = 'stripe-reconcile';

export interface ReconcileReport {
  checked: number;
  repaired: number;
  /** Orders references of the repaired purchases, for the log and the admin. */
  repairedOrders: string[];
  at: string;
}

/**
 * Asks the payment provider for the checkouts paid in the last 48 hours and fulfils any that has no
 * purchase yet, through the webhook's own idempotent fulfilment: a session already fulfilled (by its
 * webhook or an earlier run) is left alone, and a webhook arriving later finds the session closed.
 */
export async function reconcilePayments(deps: AppDeps): Promise<ReconcileReport> {
  const { payments, clock, metrics } = deps;
  const now = clock.now();
  const report: ReconcileReport = { checked: 0, repaired: 0, repairedOrders: [], at: now.toISOString() };
  if (!payments.listPaidCheckouts) return report;
  for await (const event of payments.listPaidCheckouts(new Date(now.getTime() - RECONCILE_WINDOW_MS))) {
    report.checked += 1;
    const result = await handlePaymentEvent(deps, event, 'reconciliation');
    if (result.outcome === 'fulfilled') {
      report.repaired += 1;
      if (result.orderReference) report.repairedOrders.push(result.orderReference);
      metrics.reconciliationRepairs.inc();
      deps.log.warn(
        { providerSessionId: event.completion?.providerSessionId, orderReference: result.orderReference },
        'reconciliation fulfilled a paid checkout whose webhook never arrived',
      );
    }
  }
  deps.log.info({ checked: report.checked, repaired: report.repaired }, 'payment reconciliation finished');
  return report;
}

/** Puts the reconciliation on the job runner when the provider has anything to reconcile. */
export function defineReconcileJob(deps: AppDeps): void {
  if (!deps.payments.listPaidCheckouts) return;
  deps.jobs.define(RECONCILE_JOB, {
    everyMs: RECONCILE_EVERY_MS,
    leaseMs: 5 * 60_000,
    handler: () => reconcilePayments(deps),
  });
}
