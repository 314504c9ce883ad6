import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { runMigrations } from './db/migrate';
import { seed } from './platform/operations/seed';
import fs from 'node:fs';
import path from 'node:path';
import { createFileStore, S3FileStore } from './platform/storage/files';
import { smtpTransport } from './platform/mail/mail';
import {
  checkSmtp,
  connectRedis,
  isPermanentDatabaseError,
  reasonOf,
  type Say,
  StartAbort,
  waitForService,
  whereIs,
} from './platform/operations/start-checks';
import { startControlSocket } from './platform/operations/control-socket';
import { drainThenClose } from './platform/operations/drain';
import v8 from 'node:v8';
import { warmPublicPages } from './platform/http/warm-pages';
import { openPrivateDatabase } from './platform/storage/private-data';

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
// The operator's lines about the services (decision 0063): plain text, one line each, on stderr.
const say: Say = (line) => console.warn(line);

async function start() {
  // The services the site cannot serve without are asked first, the bucket before the database, whose
  // opening may take seconds (PGlite creates its files on the first start).
  const files = createFileStore(config);
  if (files instanceof S3FileStore) {
    await waitForService(() => files.check(), {
      service: `S3 bucket ${config.S3_BUCKET} at ${config.S3_ENDPOINT ? whereIs(config.S3_ENDPOINT) : `region ${config.S3_REGION}`}`,
      waitMs: config.STARTUP_WAIT_MS,
      say,
    });
  }
  // DATA_DIR and everything this process writes in it are for the service's user only (decision 0064).
  const database = await openPrivateDatabase(config, {
    onIdleError: (error) => console.warn(`database connection lost: ${error.message}`),
  });
  if (config.DATABASE_URL) {
    await waitForService(() => database.ping(), {
      service: `PostgreSQL at ${whereIs(config.DATABASE_URL)}`,
      waitMs: config.STARTUP_WAIT_MS,
      say,
      isPermanent: isPermanentDatabaseError,
    });
  }
  mark('database');
  await runMigrations(database);
  mark('migrations');
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, say) : null;
  const mailTransport = config.SMTP_URL ? smtpTransport(config.SMTP_URL, { pool: true }) : null;
  const app = await buildApp({ config, database, files, redis, mailTransport });
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
    `Site ready at ${config.PUBLIC_URL} (database: ${database.kind}, payments: ${config.paymentProvider}, delivery: ${config.DELIVERY}) ` +
      `${Math.round(performance.now())} ms after the process started`,
  );
  // Mail waits in the outbox, so the start does not wait for SMTP; an unreachable server is reported.
  if (mailTransport?.verify && config.SMTP_URL) void checkSmtp(mailTransport.verify, config.SMTP_URL, say);
  // The public pages are drawn once in the background, ahead of their first readers.
  void warmPublicPages(app).catch((error: Error) => app.log.warn({ err: error }, 'could not draw the public pages ahead'));
  return { app, database, redis, stopJobs, control };
}

let running: Awaited<ReturnType<typeof start>>;
try {
  running = await start();
} catch (error) {
  // A service that did not answer is the operator's one line; anything else is a fault, with its stack.
  if (error instanceof StartAbort) console.error(error.message);
  else console.error(`Start failed: ${reasonOf(error)}\n${(error as Error)?.stack ?? ''}`.trimEnd());
  process.exit(1);
}
const { app, database, redis, stopJobs, control } = running;

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
  // QUIT needs a live connection (there is no offline queue); without one, just close the socket.
  await redis?.quit().catch(() => redis.disconnect());
  await database.close();
  process.exit(0);
}
function stopOn(signal: string) {
  shutdown(signal).catch((error: unknown) => {
    console.error(`Shutdown failed: ${reasonOf(error)}`);
    process.exit(1);
  });
}
process.on('SIGTERM', () => stopOn('SIGTERM'));
process.on('SIGINT', () => stopOn('SIGINT'));
