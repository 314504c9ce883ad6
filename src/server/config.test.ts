import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('starts with no configuration at all', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.paymentProvider).toBe('local');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.secureCookies).toBe(false);
    expect(c.demoLoginEnabled).toBe(true);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems.some((p) => p.startsWith('PORT '))).toBe(true);
      expect(problems.some((p) => p.startsWith('DATABASE_URL '))).toBe(true);
    }
  });

  it('requires every ADMIN_* variable once one is set', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'author' })).toThrow(/ADMIN_EMAIL.*ADMIN_PASSWORD|ADMIN_PASSWORD/);
  });

  it('refuses the test payment page in production unless explicitly allowed', () => {
    const prod = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig(prod)).toThrow(/PAYMENT_PROVIDER local/);
    expect(loadConfig({ ...prod, ALLOW_TEST_PAYMENTS: 'true' }).paymentProvider).toBe('local');
    expect(loadConfig({ ...prod, ALLOW_TEST_PAYMENTS: 'true' }).demoLoginEnabled).toBe(false);
  });

  it('delivers in-process unless told otherwise, and refuses edge without S3', () => {
    expect(loadConfig({}).DELIVERY).toBe('in-process');
    expect(loadConfig({ DELIVERY: 'proxy' }).DELIVERY_INTERNAL_PATH).toBe('/internal-files/');
    expect(() => loadConfig({ DELIVERY: 'edge' })).toThrow(/DELIVERY edge .*S3_BUCKET/);
    expect(loadConfig({ DELIVERY: 'proxy', S3_BUCKET: 'files' }).DELIVERY_INTERNAL_S3_PATH).toBe('/internal-s3/');
    expect(() => loadConfig({ DELIVERY: 'proxy', DELIVERY_INTERNAL_PATH: 'files' })).toThrow(/DELIVERY_INTERNAL_PATH/);
    expect(() => loadConfig({ DELIVERY: 'proxy', DELIVERY_INTERNAL_S3_PATH: '/s3' })).toThrow(/DELIVERY_INTERNAL_S3_PATH/);
    expect(loadConfig({ DELIVERY: 'edge', S3_BUCKET: 'files' }).DELIVERY).toBe('edge');
  });

  it('requires Stripe secrets for the stripe provider', () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
  });

  it('uses secure cookies behind an https PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://example.com' }).secureCookies).toBe(true);
  });

  it('stops the start with a one-line message naming PORT', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'abc', NODE_OPTIONS: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: PORT /);
  });
});
