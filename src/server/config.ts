import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}:`)), `must start with ${protocols.join(' or ')}:`)
    .optional();
const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const internalPath = z.string().regex(/^\/[A-Za-z0-9._/-]*\/$/, 'must be a path that starts and ends with /');

/** The environment schema: every variable the server reads, with its default. */
const envObject = z.object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.string().url().default('http://localhost:3000'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SMTP_URL: optionalUrl(['smtp', 'smtps']),
    MAIL_FROM: z.string().min(3).default('What We Owe the Dead <no-reply@localhost>'),
    AUTHOR_EMAIL: z.string().email().default('author@localhost'),
    ADMIN_USERNAME: z.string().min(1).max(40).optional(),
    ADMIN_EMAIL: z.string().email().optional(),
    ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    PAYMENT_PROVIDER: z.enum(['local', 'stripe']).optional(),
    ALLOW_TEST_PAYMENTS: bool.default(false),
    STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
    /** Another Stripe API base (stripe-mock, a test double); the real API when unset. */
    STRIPE_API_URL: z.string().url().optional(),
    /** Stripe Tax product tax codes per kind of format (decision 0080); unset: the account's preset code. */
    STRIPE_TAX_CODE_PRINT: z.string().startsWith('txcd_').optional(),
    STRIPE_TAX_CODE_EBOOK: z.string().startsWith('txcd_').optional(),
    STRIPE_TAX_CODE_AUDIOBOOK: z.string().startsWith('txcd_').optional(),
    /** Bearer token for GET /metrics; unset means /metrics does not exist. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: z.string().url().optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    /**
     * Who sends an owned file's bytes (decision 0109): this process, nginx in front of it
     * (X-Accel-Redirect to DELIVERY_INTERNAL_PATH for a file on disk, to DELIVERY_INTERNAL_S3_PATH with a
     * signed GET for a file in S3), or S3 itself through short-lived signed links.
     */
    DELIVERY: z.enum(['in-process', 'proxy', 'edge']).default('in-process'),
    DELIVERY_INTERNAL_PATH: internalPath.default('/internal-files/'),
    DELIVERY_INTERNAL_S3_PATH: internalPath.default('/internal-s3/'),
    REDIS_URL: optionalUrl(['redis', 'rediss']),
    /** How long a start waits for PostgreSQL and the S3 bucket to answer before it exits (decision 0063). */
    STARTUP_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    TRUST_PROXY: z.string().default('false'),
    DEMO_LOGIN: bool.optional(),
    SITE_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    MAIL_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    /** How long an admin report may wait for its turn and run (decision 0070), and how many run at once. */
    REPORT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    REPORT_POOL_SIZE: z.coerce.number().int().min(1).max(20).default(3),
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(5000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export const configSchema = envObject.superRefine((c, ctx) => {
    if (c.ADMIN_USERNAME || c.ADMIN_EMAIL || c.ADMIN_PASSWORD) {
      for (const key of ['ADMIN_USERNAME', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'] as const) {
        if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when any ADMIN_* is set' });
      }
    }
    if (c.PAYMENT_PROVIDER === 'stripe' && !c.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'is required for PAYMENT_PROVIDER=stripe' });
    }
    if (c.PAYMENT_PROVIDER === 'stripe' && !c.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required for PAYMENT_PROVIDER=stripe' });
    }
    if (c.DELIVERY === 'edge' && !c.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['DELIVERY'], message: 'edge hands out signed S3 links and needs S3_BUCKET' });
    }
    if (c.NODE_ENV === 'production' && !c.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
    }
});

export type RawConfig = z.infer<typeof configSchema>;

export interface Config extends RawConfig {
  paymentProvider: 'local' | 'stripe';
  dataDir: string;
  publicUrl: URL;
  secureCookies: boolean;
  demoLoginEnabled: boolean;
  trustProxy: boolean | string | number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

function parseTrustProxy(v: string): boolean | string | number {
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** Reads the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(
    Object.keys(envObject.shape).map((k) => [k, emptyAsUndefined(env[k])]),
  );
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0] ?? 'config')} ${i.message}`));
  }
  const c = parsed.data;
  const paymentProvider = c.PAYMENT_PROVIDER ?? (c.STRIPE_SECRET_KEY ? 'stripe' : 'local');
  if (paymentProvider === 'local' && c.NODE_ENV === 'production' && !c.ALLOW_TEST_PAYMENTS) {
    throw new ConfigError([
      'PAYMENT_PROVIDER local is a test payment page and is refused in production; set STRIPE_SECRET_KEY or ALLOW_TEST_PAYMENTS=true',
    ]);
  }
  const publicUrl = new URL(c.PUBLIC_URL);
  return {
    ...c,
    paymentProvider,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl,
    secureCookies: publicUrl.protocol === 'https:',
    demoLoginEnabled: c.DEMO_LOGIN ?? c.NODE_ENV !== 'production',
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
  };
}
