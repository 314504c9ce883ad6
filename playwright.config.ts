import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const E2E_DATA_DIR = path.join(os.tmpdir(), `site-e2e-data-${PORT}`);
const E2E_MAIL_DIR = path.join(os.tmpdir(), `site-e2e-mail-${PORT}`);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2626);

/**
 * Journeys run against the built site (npm run build first) on a fresh data directory, in the system's
 * Chromium. Mail goes over real SMTP to a capturing listener (tests/e2e/serve.mjs); journeys read it there.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node tests/e2e/serve.mjs',
    url: `http://127.0.0.1:${PORT}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: E2E_DATA_DIR,
      E2E_MAIL_DIR,
      E2E_SMTP_PORT: String(SMTP_PORT),
      MAIL_POLL_MS: '250',
      // As behind compose's proxy: readers registered by the journeys each come from their own address.
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'author',
      ADMIN_EMAIL: 'author@example.com',
      ADMIN_PASSWORD: 'E2e-Admin-Password-1',
    },
  },
});
