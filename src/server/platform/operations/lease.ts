import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `work` while renewing its lease every third of the lease's length. A lease can then be short (a
 * crashed instance's work is taken over within one lease) and a long run still keeps it: the renewals
 * stop only when the run ends or its process dies.
 */
export async function whileLeaseHeld<T>(
  leaseMs: number,
  renew: () => Promise<unknown>,
  work: () => Promise<T>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<T> {
  const timer = setInterval(() => {
    renew().catch((error) => log.warn({ err: error }, 'lease renewal failed'));
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
