import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { Redis } from 'ioredis';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { type Clock, type Random, systemClock, systemRandom } from './platform/security/crypto';
import { registerErrorHandling } from './platform/http/errors';
import { DiskFileStore, type FileStore } from './platform/storage/files';
import { createDelivery } from './platform/http/delivery';
import { JobRunner } from './platform/operations/jobs';
import { MAIL_LEASE_MS, Mailer, type MailTransport, smtpTransport } from './platform/mail/mail';
import { SiteMetrics, registerMetrics } from './platform/operations/metrics';
import { findProjectRoot } from './project-root';
import { createPaymentProvider } from './platform/payments';
import { MemoCache } from './platform/http/memo-cache';
import { AccessLog, assertTokenRouteRedacted, createLoggers, defaultLogger, type LoggerSettings, requestIdFrom } from './platform/operations/logging';
import { type FrontDoor, serveRemembered, serveStatic } from './platform/http/front-door';
import { startCacheBus } from './platform/http/cache-bus';
import {
  FallbackRateCounter,
  MemoryRateCounter,
  RedisRateCounter,
  registerRateLimits,
} from './platform/security/rate-limit';
import { registerPrivateAnswers } from './platform/http/private-answers';
import { httpsDetector, registerSecurityHeaders, trustedProxyCheck } from './platform/security/security';
import { csrfPlugin } from './platform/security/csrf';
import { sessionPlugin } from './platform/security/sessions';
import { loadRenderApp, type RenderApp, spaPlugin } from './platform/http/spa';
import { openReports } from './platform/operations/reports';
import { resolveServerSecret } from './platform/operations/settings';
import { registerFeatures } from './features';
import type { AppDeps } from './deps';

export type { AppDeps } from './deps';

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  random?: Random;
  files?: FileStore;
  mailTransport?: MailTransport | null;
  redis?: Redis | null;
  clientDir?: string;
  /** The server renderer of the public pages; by default the one built beside the client, if any. */
  renderApp?: RenderApp | null;
  /** Log level and destination; false for none (tests). */
  logger?: LoggerSettings | false;
}

export { REDACTED_PATHS, defaultLogger, loggableUrl } from './platform/operations/logging';

/** Builds the whole server from its dependencies; main.ts and the tests build the same app. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? systemRandom;
  // The front door: known static files are answered before the framework sees the request (see
  // static-assets.ts); everything else goes to Fastify.
  const loggers = createLoggers(options.logger ?? defaultLogger(config.LOG_LEVEL));
  const isHttps = httpsDetector(config.trustProxy);
  const fromTrustedProxy = trustedProxyCheck(config.trustProxy);
  const front: FrontDoor = { assets: null, remembered: new Map(), closing: false, log: loggers.access, isHttps, fromTrustedProxy };
  const serverOptions: FastifyServerOptions = {
    ...(loggers.app ? { loggerInstance: loggers.app } : { logger: false }),
    logController: new AccessLog(loggers.access),
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: 1024 * 1024,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id'], fromTrustedProxy(req)),
    requestIdHeader: false,
    // A signed download link (link id, purchase, asset, user, expiry and signature) is longer than the
    // default 100 characters a path parameter may have.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (front.assets === null || !(serveStatic(front, req, res) || serveRemembered(front, req, res))) handler(req, res);
      });
      // What Fastify sets on a server it makes itself.
      server.keepAliveTimeout = 72_000;
      server.requestTimeout = 0;
      server.setTimeout(0);
      return server;
    },
  };
  const app = Fastify(serverOptions).withTypeProvider<ZodTypeProvider>() as unknown as FastifyInstance;

  app.addHook('onRoute', (route) => assertTokenRouteRedacted(route.url));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  let closeStarted = false;
  // While shutting down, answers still in flight close their connection, so a keep-alive client does not
  // hold the process open until its keep-alive timeout.
  app.addHook('preClose', (done) => {
    front.closing = true;
    closeStarted = true;
    done();
  });
  // An answer that began before the shutdown (a long download) kept its keep-alive connection: once it is
  // over, that connection closes now rather than at its keep-alive timeout, which would hold up the close.
  // (Only once the close has begun: during the drain, answers close their own connections.)
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closeStarted) app.server.closeIdleConnections();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    loggers.access?.close();
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    if (front.closing) reply.header('Connection', 'close');
    done(null, payload);
  });

  const mailTransport =
    options.mailTransport !== undefined ? options.mailTransport : config.SMTP_URL ? smtpTransport(config.SMTP_URL, { pool: true }) : null;
  const redis = options.redis ?? null;
  const files = options.files ?? new DiskFileStore(path.join(config.dataDir, 'files'));
  const metrics = new SiteMetrics(database.db, clock);
  const jobs = new JobRunner(database.db, clock, app.log, {
    onRun: (job, outcome) => metrics.jobRuns.inc({ job, outcome }),
  });
  const mailer = new Mailer(database.db, clock, config.MAIL_FROM, mailTransport, app.log, files, {
    onSent: (kind) => metrics.mailSent.inc({ kind }),
    onFailed: (kind) => metrics.mailFailed.inc({ kind }),
  });
  if (mailTransport) {
    jobs.define('mail-dispatch', {
      everyMs: config.MAIL_POLL_MS,
      leaseMs: MAIL_LEASE_MS,
      // Drains what is due now; retries wait for their own time in the outbox.
      handler: async () => {
        let sent = 0;
        for (let batch = 0; batch < 50; batch += 1) {
          const n = await mailer.dispatchDue();
          sent += n;
          if (n === 0) break;
        }
        return { sent };
      },
    });
    mailer.onEnqueued = () => jobs.kick('mail-dispatch');
  }
  const reports = openReports(database, { slots: config.REPORT_POOL_SIZE, timeoutMs: config.REPORT_TIMEOUT_MS });
  app.addHook('onClose', async () => reports.close());
  app.addHook('onClose', async () => mailTransport?.close?.());
  const deps: AppDeps = {
    config,
    database,
    reports,
    clock,
    random,
    files,
    delivery: createDelivery(config.DELIVERY, files, {
      internalPath: config.DELIVERY_INTERNAL_PATH,
      internalS3Path: config.DELIVERY_INTERNAL_S3_PATH,
    }),
    mailer,
    jobs,
    metrics,
    counter: redis
      ? new FallbackRateCounter(new RedisRateCounter(redis), new MemoryRateCounter(clock), app.log)
      : new MemoryRateCounter(clock),
    cache: new MemoCache(config.SITE_CACHE_MS, () => clock.now().getTime(), () => clock.elapsed()),
    redis,
    payments: createPaymentProvider(config, clock, random),
    secret: await resolveServerSecret(database.db, config.SESSION_SECRET),
    clientDir:
      options.clientDir ?? path.join(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))), 'dist/client'),
    log: app.log,
  };
  app.decorate('deps', deps);
  app.decorate('frontDoor', front);
  deps.cache.onLocalClear(() => front.remembered.clear());
  if (deps.cache.enabled) {
    const stopBus = await startCacheBus({ cache: deps.cache, database, redis, log: app.log });
    app.addHook('onClose', async () => stopBus());
  }

  registerErrorHandling(app);
  registerMetrics(app, metrics, config.METRICS_TOKEN);
  await app.register(swagger, {
    openapi: {
      info: { title: 'What We Owe the Dead: site API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  const everyAnswer = await registerSecurityHeaders(app, { stripe: config.paymentProvider === 'stripe', isHttps });
  // Every text answer goes out compressed: brotli when the client takes it, else gzip. Pages and static
  // files arrive already compressed (built once) and are left alone; this covers API JSON, feeds and
  // the rest, at a brotli quality cheap enough per request.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  await app.register(cookie);
  await registerRateLimits(app, redis);
  await app.register(sessionPlugin, {
    db: database.db,
    clock,
    random,
    secureCookies: config.secureCookies,
  });
  await app.register(csrfPlugin, { secret: deps.secret, random, secureCookies: config.secureCookies });
  registerPrivateAnswers(app);
  await app.register(spaPlugin, {
    clientDir: deps.clientDir,
    renderApp: options.renderApp !== undefined ? options.renderApp : await loadRenderApp(deps.clientDir),
  });
  // The front door (decision 0108) sends the same security headers as the framework: the list the
  // framework's hook sends, handed over here rather than learnt from an answer.
  app.staticAssets.setCommonHeaders(everyAnswer);
  front.assets = app.staticAssets;

  await registerFeatures(app);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
