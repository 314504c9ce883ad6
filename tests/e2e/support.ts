import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const ADMIN = { username: 'author', email: 'author@example.com', password: 'E2e-Admin-Password-1' };
const MAIL_DIR = path.join(os.tmpdir(), `site-e2e-mail-${process.env.E2E_PORT ?? 3100}`);

export interface CapturedMail {
  to: string;
  raw: string;
}

/** Waits for the newest mail to `to` whose raw text matches `pattern`; mail arrives over real SMTP. */
export async function waitForMail(to: string, pattern: RegExp, timeoutMs = 20_000): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(MAIL_DIR)
      ? fs.readdirSync(MAIL_DIR).filter((f) => f.endsWith('.json')).sort().reverse()
      : [];
    for (const file of files) {
      const mail = JSON.parse(fs.readFileSync(path.join(MAIL_DIR, file), 'utf8')) as CapturedMail;
      if (mail.to.toLowerCase().includes(to.toLowerCase()) && pattern.test(decodeQuotedPrintable(mail.raw))) {
        return { ...mail, raw: decodeQuotedPrintable(mail.raw) };
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

/** Mail bodies are quoted-printable; links must be read decoded. Headers are left as they are. */
export function decodeQuotedPrintable(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  if (split < 0) return raw;
  const body = raw
    .slice(split)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  return raw.slice(0, split) + body;
}

let counter = 0;
export function uniqueReader() {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return {
    username: `reader_${id}`,
    email: `reader_${id}@example.com`,
    displayName: `Reader ${id}`,
    password: 'Quiet-River-42!',
  };
}

export async function expectToast(page: Page, title: string) {
  await expect(page.getByRole('status').filter({ hasText: title }).first()).toBeVisible();
}
