import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, test as base, expect, type Frame, type Locator, type Page } from '@playwright/test';

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
/** Where a journey's print order ships. */
export const TEST_ADDRESS = { name: 'Ada Reader', line1: '1 Harbour Street', city: 'Whitby', postalCode: 'YO21 3PU', country: 'United Kingdom' };

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

/** A CSRF token for this request context (an API context, or a page's `page.request`). */
export async function csrfToken(api: APIRequestContext): Promise<string> {
  const res = await api.get('/api/csrf-token');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

/** POST JSON with the CSRF token, expecting success; answers the body. */
export async function postJson<T = unknown>(api: APIRequestContext, url: string, data: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await api.post(url, { data, headers: { ...headers, 'X-CSRF-Token': await csrfToken(api) } });
  expect(res.ok(), `${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** Registers the reader through the API: the context is signed in (cookie) and the answer holds a bearer token. */
export function registerByApi(api: APIRequestContext, reader: ReturnType<typeof uniqueReader>) {
  const { username, password, email, displayName } = reader;
  return postJson<{ token: string }>(api, '/api/users/register', { username, password, email, displayName }, { 'X-Forwarded-For': nextReaderAddress() });
}

let readersSoFar = 0;
/**
 * Each reader the journeys create registers from an address of their own, as real readers do: the site runs
 * behind a trusted proxy here (TRUST_PROXY=loopback, as in compose), so the per-address registration limit
 * applies to each of them instead of counting every journey's readers against the one test machine.
 */
function nextReaderAddress() {
  readersSoFar += 1;
  const n = (process.pid % 200) * 65_536 + readersSoFar;
  return `127.${1 + ((n >> 16) % 250)}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * The journeys' `test`: each journey's browser comes from an address of its own too, so the per-address
 * limits (checkouts, sign-ins) count each journey's reader, as they would count real readers, instead of
 * every journey of a fast run against the one test machine.
 */
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': nextReaderAddress() });
  },
});

/** A new reader, signed in in this request context, who bought these formats on the local payment page. */
export async function readerWith(api: APIRequestContext, formats: string[], options: { askForReview?: boolean } = {}) {
  const reader = uniqueReader();
  await registerByApi(api, reader);
  const bookId = ((await (await api.get('/api/books/featured')).json()) as { id: number }).id;
  for (const format of formats) {
    const { url } = await postJson<{ url: string }>(api, '/api/checkout', { bookId, format });
    // Print orders on the local payment page carry the address they ship to.
    const print = format === 'hardcover' || format === 'paperback';
    await postJson(api, `/api/checkout/sessions/${url.split('/').pop()}/pay`, print ? { shippingAddress: TEST_ADDRESS } : {});
  }
  // The seeded e-book is short, so journeys that turn its pages reach its end, where a reader is asked
  // "Enjoyed it?" once. Unless a journey is about that question (reviews.spec.ts), its reader has already
  // answered "Not now".
  if (!options.askForReview && formats.some((f) => f === 'ebook' || f === 'audiobook' || f === 'pdf')) {
    await postJson(api, `/api/books/${bookId}/review-prompt/dismiss`, {});
  }
  return { reader, bookId };
}

/** Fills the Register tab of /login (the page must be open) and, unless told not to, sends it. */
export async function fillRegisterForm(page: Page, reader: ReturnType<typeof uniqueReader>, options: { submit?: boolean } = {}) {
  await page.getByRole('tab', { name: 'Register' }).click();
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Email').fill(reader.email);
  await form.getByLabel('Username').fill(reader.username);
  await form.getByLabel('Display Name').fill(reader.displayName);
  await form.getByLabel('Password', { exact: true }).fill(reader.password);
  if (options.submit !== false) await form.getByRole('button', { name: 'Create Account' }).click();
  return form;
}

/**
 * Presses the e-book reader's "Next page" and waits until the page has turned (the reader is no longer
 * busy turning, and its place has changed), or until `done` shows: on the last page a press turns
 * nothing, and what the end brings (the sample's "Buy to keep reading", the review prompt) is what the
 * caller waits for.
 */
export async function nextPage(page: Page, done: Locator): Promise<void> {
  const place = page.locator('[data-locator]');
  const before = await place.getAttribute('data-locator');
  await page.getByRole('button', { name: 'Next page' }).click();
  const turned = async () => (await place.getAttribute('aria-busy')) === null && (await place.getAttribute('data-locator')) !== before;
  await expect.poll(async () => (await done.isVisible()) || (await turned()), { message: 'the page turns, or the end shows' }).toBe(true);
}

/** The frame the e-book reader draws the book's page in (a blob: document), once the browser has it. */
export async function bookFrame(page: Page): Promise<Frame | undefined> {
  const find = () => page.frames().find((f) => f.url().startsWith('blob:'));
  await expect.poll(() => find() !== undefined, { message: 'the book page is in its own frame' }).toBe(true);
  return find();
}

/**
 * Waits until nothing on its way still changes the drawn page's layout: no loading placeholder left
 * (skeletons, busy regions, "Loading" statuses), the web fonts in, and every image the page has asked
 * for loaded (not those deferred until they near the screen).
 */
export async function layoutSettled(page: Page): Promise<void> {
  await expect(page.locator('[data-skeleton], [aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
  await page.waitForFunction(() => document.fonts.status === 'loaded' && [...document.images].every((img) => img.complete || img.loading === 'lazy'));
}

/** Waits until the server-rendered page has been hydrated and its presses reach the app (lib/early-actions). */
export async function pageLive(page: Page): Promise<void> {
  await expect(page.locator('#root')).toHaveAttribute('data-live', '');
}
