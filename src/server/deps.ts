/**
 * What every service and route receives: the app's dependencies, built once by app.ts. Features import
 * this type from here, never from the app that composes them (that would be an import cycle).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Clock, Random } from './platform/security/crypto';
import type { Delivery } from './platform/http/delivery';
import type { FileStore } from './platform/storage/files';
import type { FrontDoor } from './platform/http/front-door';
import type { JobRunner } from './platform/operations/jobs';
import type { Mailer } from './platform/mail/mail';
import type { MemoCache } from './platform/http/memo-cache';
import type { SiteMetrics } from './platform/operations/metrics';
import type { PaymentProvider } from './platform/payments';
import type { RateCounter } from './platform/security/rate-limit';
import type { Reports } from './platform/operations/reports';

export interface AppDeps {
  config: Config;
  database: Database;
  /** The author's reports: their own connections, a statement timeout and a few at once (decision 0070). */
  reports: Reports;
  clock: Clock;
  random: Random;
  files: FileStore;
  /** Who sends an owned file's bytes once a route has decided they may go (decision 0109). */
  delivery: Delivery;
  mailer: Mailer;
  /** The one job runner (mail dispatch, reconciliation, ...); main.ts starts it. */
  jobs: JobRunner;
  metrics: SiteMetrics;
  counter: RateCounter;
  /**
   * The public cache: everything anonymous visitors read, filled once; an admin change clears it here and on
   * every other instance (cache-bus.ts). Rendered pages live in it under `html:` keys.
   */
  cache: MemoCache;
  redis: Redis | null;
  /** Hosted payment pages and webhooks: the local test page or Stripe. */
  payments: PaymentProvider;
  /** Signs CSRF tokens and download links. */
  secret: string;
  /** The built client; tests point this at a fixture. */
  clientDir: string;
  /** The application log (the framework's logger): services log through it without holding the app. */
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** What the HTTP server answers before the framework (static files, repeated public reads). */
    frontDoor: FrontDoor;
  }
}

