import { Redis } from 'ioredis';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { seed } from './platform/seed';
import fs from 'node:fs';
import path from 'node:path';
import { createFileStore } from './platform/files';
import { startControlSocket } from './platform/control-socket';
import { drainThenClose } from './platform/drain';
import v8 from 'node:v8';
import { warmPublicPages } from './platform/warm-pages';

function readConfig() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // One line per bad variable, and no stack trace: this is the operator's message.
      for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
if (!config.DATABASE_URL && fs.existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'))) {
  // PGlite is PostgreSQL compiled to WebAssembly. V8's optimising tier recompiles that whole module in the
  // background, which costs a CPU core for seconds after start and keeps 100+ MB of resident memory; the
  // baseline compiler alone is enough, since public reads come from the app's cache, not the database.
  // The very first start (creating the database) keeps the optimising tier: it runs initdb much faster.
  v8.setFlagsFromString('--liftoff-only');
}
// Start-up phases, in ms since the process started, for the ready line.
const phases: Record<string, number> = { modules: Math.round(performance.now()) };
const mark = (name: string) => (phases[name] = Math.round(performance.now()));
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.dataDir,
  onIdleError: (error) => console.warn(`database connection lost: ${error.message}`),
});
mark('database');
await runMigrations(database);
mark('migrations');
const files = createFileStore(config);
// Commands fail at once while Redis is away (no offline queue), so requests fall back instead of waiting.
const redis = config.REDIS_URL
  ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 })
  : null;
let redisWarnedAt = 0;
redis?.on('error', (error) => {
  if (Date.now() - redisWarnedAt < 60_000) return;
  redisWarnedAt = Date.now();
  console.warn(`redis unavailable (${error.message}): rate limits count per instance until it returns`);
});
const app = await buildApp({ config, database, files, redis });
mark('app');
await seed(database.db, files, {
  admin:
    config.ADMIN_USERNAME && config.ADMIN_EMAIL && config.ADMIN_PASSWORD
      ? { username: config.ADMIN_USERNAME, email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD }
      : undefined,
  log: (m) => app.log.info(m),
  demoReader: config.demoLoginEnabled,
});
// Recurring jobs get their rows; the reconciliation with the payment provider runs at every start.
await app.deps.jobs.ensureRecurring({ runNow: ['stripe-reconcile'] });
const stopJobs = app.deps.jobs.start(Math.min(config.MAIL_POLL_MS, 5000));
mark('seed');
await app.listen({ port: config.PORT, host: config.HOST });
mark('listening');
// PGlite belongs to this process alone, so `npm run backup` asks it for the archive over a local socket.
const control =
  database.kind === 'pglite'
    ? await startControlSocket(config.dataDir, { database, files, log: app.log }).catch((error: Error) => {
        // The site runs without it; only `npm run backup` against this running server is unavailable.
        app.log.warn({ err: error }, 'backup control socket unavailable (is DATA_DIR too long a path?)');
        return null;
      })
    : null;
app.log.info(
  { startup: phases },
  `Site ready at ${config.PUBLIC_URL} (database: ${database.kind}, payments: ${config.paymentProvider}) ` +
    `${Math.round(performance.now())} ms after the process started`,
);
// The public pages are drawn once in the background, ahead of their first readers.
void warmPublicPages(app).catch((error: Error) => app.log.warn({ err: error }, 'could not draw the public pages ahead'));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  // SIGTERM is the orchestrator's stop: drain first so the load balancer sees /readyz fail and stops
  // sending (decision 0021). SIGINT is someone at a terminal: close at once.
  const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0;
  app.log.info(
    drainMs > 0
      ? `${signal} received: draining for ${drainMs} ms, then finishing in-flight requests`
      : `${signal} received: finishing in-flight requests`,
  );
  const force = setTimeout(() => process.exit(1), drainMs + 15_000);
  force.unref();
  // The drain answers everything with Connection: close; close() then stops accepting connections and
  // waits for in-flight requests to finish.
  await drainThenClose(app, drainMs);
  await stopJobs();
  await control?.close();
  await redis?.quit();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
