import { expect } from '@playwright/test';
import { ADMIN, expectToast, postJson, waitForMail, test } from './support';

/**
 * Broadcasts (issue 28 points 2 and 3, decision 0077): a visitor subscribes and confirms, the author writes a
 * broadcast to all confirmed subscribers in the post editor and sends it; the mail arrives with both
 * unsubscribe headers and a working personal link; a one-click unsubscribe (POST to the List-Unsubscribe URL)
 * is honoured, and the next broadcast does not reach that address.
 */

/** A header of a raw mail, folded lines joined. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

test('subscribe, confirm, receive a broadcast, leave with one click, and miss the next one', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = `broadcast_${stamp}@example.com`;
  const stayer = `broadcast_stays_${stamp}@example.com`;

  // Another reader who subscribes and confirms, and stays on the list.
  const visitor = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postJson(visitor, '/api/subscribe', { email: stayer, name: '' });
  const stayerLink = new URL(/Confirm your subscription: (https?:\/\/\S+)/.exec((await waitForMail(stayer, /Confirm your subscription/)).raw)![1]);
  await postJson(visitor, '/api/newsletter/confirm', { token: stayerLink.searchParams.get('token') });
  await visitor.dispose();

  await page.goto('/#newsletter-section');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expectToast(page, 'Subscribed Successfully');
  const welcome = await waitForMail(email, /Confirm your subscription/);
  const confirmLink = /Confirm your subscription: (https?:\/\/\S+)/.exec(welcome.raw)![1];
  await page.goto(confirmLink);
  await page.getByRole('button', { name: 'Confirm your subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();

  // The author writes the broadcast in the admin area.
  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('link', { name: /Newsletter/ }).click();
  await page.getByRole('link', { name: 'New broadcast' }).click();
  const subject = `Chapter one is here ${stamp}`;
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Preview text').fill('A first look before anyone else');
  const body = page.getByRole('textbox', { name: 'Body' });
  await body.click();
  await body.pressSequentially('Dear reader, the first chapter is ready.');
  await expect(page.getByText(/This audience is \d+ confirmed subscribers?\./)).toBeVisible();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expectToast(page, 'Broadcast saved');
  await expect(page).toHaveURL(/\/admin\/newsletter\/\d+$/);
  await page.getByRole('button', { name: 'Preview at phone width' }).click();
  await expect(page.frameLocator('iframe[title="Preview at phone width"]').getByText('Dear reader, the first chapter is ready.')).toBeVisible();
  await page.getByRole('button', { name: 'Send now' }).click();
  await expectToast(page, 'Sending');

  const mail = await waitForMail(email, new RegExp(subject), 60_000);
  expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const unsubscribe = /^<(.+)>$/.exec(header(mail.raw, 'List-Unsubscribe') ?? '')![1];
  expect(mail.raw).toContain('Content-Type: text/plain');
  expect(mail.raw).toContain('Dear reader, the first chapter is ready.');
  expect(mail.raw).toContain(`Unsubscribe with one click: ${unsubscribe}`);

  // The personal link opens the unsubscribe page (and changes nothing by itself).
  const reader = await playwright.request.newContext();
  const opened = await reader.get(unsubscribe);
  expect(opened.status()).toBe(200);
  // A mail client's one-click POST.
  const oneClick = await reader.post(unsubscribe, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status()).toBe(200);
  await reader.dispose();

  // The next broadcast reaches the list, but not the address that left.
  const api = page.context().request;
  const next = await postJson<{ id: number }>(api, '/api/admin/broadcasts', {
    subject: `The second letter ${stamp}`,
    previewText: '',
    body: '<p>Second.</p>',
    audience: { kind: 'all' },
  });
  await postJson(api, `/api/admin/broadcasts/${next.id}/send`, {});
  await expect
    .poll(async () => (await (await api.get(`/api/admin/broadcasts/${next.id}`)).json()).status, { timeout: 60_000 })
    .toBe('sent');
  await waitForMail(stayer, new RegExp(`The second letter ${stamp}`), 30_000);
  await expect(waitForMail(email, /The second letter/, 3_000)).rejects.toThrow();
  const suppressions = (await (await api.get('/api/admin/suppressions')).json()) as { items: Array<{ email: string; state: string }> };
  expect(suppressions.items).toContainEqual(expect.objectContaining({ email, state: 'unsubscribed' }));
  await page.goto('/admin/newsletter');
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
});

test('a link in a broadcast goes through the click redirect to its page, is counted per link, and a changed one is refused', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = `clicks_${stamp}@example.com`;
  const visitor = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await postJson(visitor, '/api/subscribe', { email, name: '' });
  const confirm = new URL(/Confirm your subscription: (https?:\/\/\S+)/.exec((await waitForMail(email, /Confirm your subscription/)).raw)![1]);
  await postJson(visitor, '/api/newsletter/confirm', { token: confirm.searchParams.get('token') });
  await visitor.dispose();

  await page.goto('/login?returnTo=admin');
  await page.getByLabel(/username or email/i).fill(ADMIN.username);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const api = page.context().request;
  const subject = `Links to follow ${stamp}`;
  const sent = await postJson<{ id: number }>(api, '/api/admin/broadcasts', {
    subject,
    previewText: '',
    body: '<p>Read <a href="/blog">the journal</a> tonight.</p>',
    audience: { kind: 'all' },
  });
  await postJson(api, `/api/admin/broadcasts/${sent.id}/send`, {});

  const mail = await waitForMail(email, new RegExp(subject), 60_000);
  const tracked = new URL(/the journal \((https?:\/\/\S+\/r\/\S+)\)/.exec(mail.raw)![1]);
  expect(tracked.pathname).toMatch(new RegExp(`^/r/${sent.id}/`));

  // A reader's click: through the redirect to the journal.
  await page.goto(tracked.pathname + tracked.search);
  await expect(page).toHaveURL(/\/blog$/);

  // The same link pointed somewhere else is refused with a page, not followed.
  const changed = new URL(tracked.toString());
  changed.searchParams.set('u', 'https://evil.example.net/');
  await page.goto(changed.pathname + changed.search);
  await expect(page.getByRole('heading', { name: 'This link cannot be followed' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(changed.pathname);

  await page.goto(`/admin/newsletter/${sent.id}`);
  await expect(page.getByRole('heading', { name: 'Clicks per link' })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: /\/blog$/ }) });
  await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  await expect(page.getByText(/^Opens are not counted\./)).toBeVisible();
});
