/**
 * The built server (`npm run build`) started as operators start it, on the scale database, so that what
 * the benchmark reads of memory and event-loop delay is the server's alone: an in-process app would hold
 * every answer it was asked for, and the benchmark's own work would count as the server's.
 * bench/loop-monitor.mjs runs inside it and reports its event-loop delay and peak RSS on request.
 */
import { performance } from 'node:perf_hooks';
import { startBuiltSite } from '../built-site.mjs';

export interface ServerSample {
  loopMaxMs: number;
  rssMB: number;
  peakRssMB: number;
  peakHeapTotalMB: number;
  peakHeapUsedMB: number;
  peakExternalMB: number;
  peakArrayBuffersMB: number;
}

export interface ServedSite {
  /** Reads a route to its end, counting bytes as they arrive (the answer is never held whole). */
  get(route: string, bearer?: string): Promise<{ status: number; bytes: number; ms: number }>;
  /** The server's figures since the last sample (the first call starts the window). */
  sample(): Promise<ServerSample>;
  stop(): Promise<void>;
}

export async function startServedSite(databaseUrl: string, port: number, env: Record<string, string> = {}): Promise<ServedSite> {
  const site = await startBuiltSite({
    port,
    name: 'scale-served',
    // SCALE_NODE_FLAGS: node flags of one's own for the server (such as --trace-gc), after npm start's.
    nodeArgs: ['--import', './bench/loop-monitor.mjs', ...(process.env.SCALE_NODE_FLAGS ?? '').split(' ').filter(Boolean)],
    ipc: true,
    // No payment is made here; the test payment page only lets the production start go ahead.
    env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, SESSION_SECRET: 'scale-benchmark-session-secret-of-enough-length', ALLOW_TEST_PAYMENTS: 'true', ...env },
  });

  const get = async (route: string, bearer?: string) => {
    const at = performance.now();
    const res = await fetch(`${site.base}${route}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
    let bytes = 0;
    const reader = res.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) bytes += part.value.byteLength;
    return { status: res.status, bytes, ms: performance.now() - at };
  };
  const sample = () =>
    new Promise<ServerSample>((resolve) => {
      site.process.once('message', (figures) => resolve(figures as ServerSample));
      site.process.send('sample');
    });
  return { get, sample, stop: site.stop };
}
