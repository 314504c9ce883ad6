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
import { type Clock, type Random, systemClock, systemRandom } from './platform/crypto';
import { registerErrorHandling } from './platform/errors';
import { DiskFileStore, type FileStore } from './platform/files';
import { Mailer, type MailTransport, smtpTransport } from './platform/mail';
import { findProjectRoot } from './platform/project-root';
import { createPaymentProvider, type PaymentProvider } from './platform/payments';
import { MemoCache } from './platform/memo-cache';
import { MemoryRateCounter, type RateCounter, RedisRateCounter, registerRateLimits } from './platform/rate-limit';
import { registerSecurityHeaders } from './platform/security';
import { csrfPlugin } from './platform/csrf';
import { sessionPlugin } from './platform/sessions';
import { loadRenderApp, type RenderApp, spaPlugin } from './platform/spa';
import { resolveServerSecret } from './features/settings/service';
import { registerFeatures } from './features';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  random: Random;
  files: FileStore;
  mailer: Mailer;
  counter: RateCounter;
  /** Read-through cache of admin-edited content every page reads; admin writes clear it. */
  cache: MemoCache;
  redis: Redis | null;
  /** Hosted payment pages and webhooks: the local test page or Stripe. */
  payments: PaymentProvider;
  /** Signs CSRF tokens and download links. */
  secret: string;
  /** The built client; tests point this at a fixture. */
  clientDir: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

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
  logger?: FastifyServerOptions['logger'];
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
];

/**
 * The URL as logged: query strings are dropped (reset links, unsubscribe links and other signed URLs carry
 * their secret there) and the token of a signed download path is masked.
 */
export function loggableUrl(url: string): string {
  const path = url.split('?')[0];
  return path.replace(/^\/files\/download\/[^/]+/, '/files/download/[redacted]');
}

export function defaultLogger(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    stream,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: loggableUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Builds the whole server from its dependencies; main.ts and the tests build the same app. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? systemRandom;
  const serverOptions: FastifyServerOptions = {
    logger: options.logger ?? defaultLogger(config.LOG_LEVEL),
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    },
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  };
  const app = Fastify(serverOptions).withTypeProvider<ZodTypeProvider>() as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // While shutting down, answers still in flight close their connection, so a keep-alive client does not
  // hold the process open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (closing) reply.header('Connection', 'close');
  });

  const mailTransport =
    options.mailTransport !== undefined ? options.mailTransport : config.SMTP_URL ? smtpTransport(config.SMTP_URL) : null;
  const redis = options.redis ?? null;
  const deps: AppDeps = {
    config,
    database,
    clock,
    random,
    files: options.files ?? new DiskFileStore(path.join(config.dataDir, 'files')),
    mailer: new Mailer(database.db, clock, config.MAIL_FROM, mailTransport, app.log),
    counter: redis ? new RedisRateCounter(redis) : new MemoryRateCounter(clock),
    cache: new MemoCache(config.SITE_CACHE_MS),
    redis,
    payments: createPaymentProvider(config, clock, random),
    secret: await resolveServerSecret(database.db, config.SESSION_SECRET),
    clientDir:
      options.clientDir ?? path.join(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))), 'dist/client'),
  };
  app.decorate('deps', deps);

  registerErrorHandling(app);
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
  await registerSecurityHeaders(app, { stripe: config.paymentProvider === 'stripe' });
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
  await app.register(spaPlugin, {
    clientDir: deps.clientDir,
    renderApp: options.renderApp !== undefined ? options.renderApp : await loadRenderApp(deps.clientDir),
  });

  await registerFeatures(app);

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
