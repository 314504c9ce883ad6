import { Redis } from 'ioredis';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { seed } from './db/seed';
import { DiskFileStore, S3FileStore } from './platform/files';
import path from 'node:path';
import v8 from 'node:v8';

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
if (!config.DATABASE_URL) {
  // PGlite is PostgreSQL compiled to WebAssembly. V8's optimising tier recompiles that whole module in the
  // background, which costs a CPU core for seconds after start and keeps 100+ MB of resident memory; the
  // baseline compiler alone is enough, since public reads come from the app's cache, not the database.
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
const files = config.S3_BUCKET
  ? new S3FileStore({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    })
  : new DiskFileStore(path.join(config.dataDir, 'files'));
const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
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
const stopMail = app.deps.mailer.start(config.MAIL_POLL_MS);
mark('seed');
await app.listen({ port: config.PORT, host: config.HOST });
mark('listening');
app.log.info(
  { startup: phases },
  `Site ready at ${config.PUBLIC_URL} (database: ${database.kind}, payments: ${config.paymentProvider}) ` +
    `${Math.round(performance.now())} ms after the process started`,
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal} received: finishing in-flight requests`);
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  // close() stops accepting connections and waits for in-flight requests to finish.
  await app.close();
  await stopMail();
  await redis?.quit();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
