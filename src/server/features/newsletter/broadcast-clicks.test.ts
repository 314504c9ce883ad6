import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CLICK_MESSAGES } from '@shared/schemas/broadcasts';
import { broadcastClicks, newsletterSubscribers } from '../../db/schema';
import { smtpTransport } from '../../platform/mail/mail';
import { createTestApp, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { clickSignature, clickUrl } from './broadcast-links';
import { headerOf, startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';

const SITE = 'https://www.example.com';
const body =
  '<p>Read <a href="/blog/first-look">the first look</a>, then ' +
  '<a href="https://shop.example.org/signed?copy=1&amp;edition=2">a signed copy</a>, ' +
  'or write to <a href="mailto:author@example.com">the author</a>.</p>';
const FIRST_LOOK = `${SITE}/blog/first-look`;
const SIGNED = 'https://shop.example.org/signed?copy=1&edition=2';

describe('clicks on broadcast links: a signed redirect under /r/ (decision 0090)', () => {
  let t: TestApp;
  let agent: TestAgent;
  let smtp: SmtpCapture;
  let id: number;
  let links: string[];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await createTestApp({ seed: false, mailTransport: smtpTransport(smtp.url), env: { PUBLIC_URL: SITE } });
    agent = (await adminAgent(t)).agent;
    await t.database.db.insert(newsletterSubscribers).values({ email: 'clicker@example.com', state: 'confirmed', source: 'import' });
    const created = await agent.post('/api/admin/broadcasts', { subject: 'Links to follow', body, audience: { kind: 'all' } });
    expect(created.statusCode).toBe(201);
    id = created.json().id;
    expect((await agent.post(`/api/admin/broadcasts/${id}/send`, {})).statusCode).toBe(200);
    await t.app.deps.jobs.runDue(50);
    while ((await t.app.deps.mailer.dispatchDue(100)) > 0);
    const mail = smtp.inbox.find((m) => headerOf(m, 'Subject') === 'Links to follow');
    expect(mail).toBeDefined();
    links = [...new Set(mail!.raw.match(/https:\/\/www\.example\.com\/r\/[^\s)"<]+/g) ?? [])];
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url: url.replace(SITE, '') });
  const clicksOf = async () =>
    (await t.database.db.select().from(broadcastClicks).where(eq(broadcastClicks.broadcastId, id))).map((r) => [r.url, r.clicks] as const);

  it('every web link of the mail, in HTML and text, goes through the redirect; mailto and unsubscribe stay direct', async () => {
    const mail = smtp.inbox.find((m) => headerOf(m, 'Subject') === 'Links to follow')!;
    // Worked out from the broadcast and the target alone, so a send resumed by another process writes the same link.
    expect(links).toEqual([clickUrl(new URL(SITE), t.app.deps.secret, id, FIRST_LOOK), clickUrl(new URL(SITE), t.app.deps.secret, id, SIGNED)]);
    expect(mail.raw).toContain(`the first look (${links[0]})`);
    expect(mail.raw).toContain(`href="${links[0]}"`);
    expect(mail.raw).toContain(`a signed copy (${links[1]})`);
    expect(mail.raw).not.toContain(`href="${FIRST_LOOK}"`);
    expect(mail.raw).toContain('href="mailto:author@example.com"');
    expect(headerOf(mail, 'List-Unsubscribe')).toMatch(/^<https:\/\/www\.example\.com\/api\/newsletter\/unsubscribe\?/);
  });

  it('a click is counted per broadcast and link and goes on to the target; a HEAD look is not counted', async () => {
    const first = await get(links[0]);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(FIRST_LOOK);
    expect(first.headers['cache-control']).toBe('no-store');
    expect((await get(links[1])).headers.location).toBe(SIGNED);
    expect((await get(links[1])).statusCode).toBe(302);
    expect((await get(links[1], 'HEAD')).statusCode).toBe(302);
    expect(new Map(await clicksOf())).toEqual(new Map([[FIRST_LOOK, 1], [SIGNED, 2]]));
  });

  it('the admin answer lists every link of the mail with its clicks', async () => {
    const res = await agent.get(`/api/admin/broadcasts/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().links).toEqual([
      { url: FIRST_LOOK, clicks: 1 },
      { url: SIGNED, clicks: 2 },
    ]);
    const draft = await agent.post('/api/admin/broadcasts', { subject: 'No clicks yet', body, audience: { kind: 'all' } });
    expect(draft.json().links).toEqual([
      { url: FIRST_LOOK, clicks: 0 },
      { url: SIGNED, clicks: 0 },
    ]);
  });

  it('refuses a foreign target, a tampered signature and an unknown broadcast with a page that says so, and counts nothing', async () => {
    const before = await clicksOf();
    const expectRefused = async (url: string, status: number, words: string) => {
      const res = await get(url);
      expect(res.statusCode).toBe(status);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(words);
    };
    const foreign = new URL(links[0]);
    foreign.searchParams.set('u', 'https://evil.example.net/login');
    await expectRefused(foreign.toString(), 400, CLICK_MESSAGES.invalid);
    // Even signed with the server's secret, a target the mail does not hold is not followed.
    const signedForeign = `/r/${id}/${clickSignature(t.app.deps.secret, id, 'https://evil.example.net/login')}?u=${encodeURIComponent('https://evil.example.net/login')}`;
    await expectRefused(signedForeign, 400, CLICK_MESSAGES.invalid);
    const tampered = new URL(links[0]);
    tampered.pathname = tampered.pathname.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    await expectRefused(tampered.toString(), 400, CLICK_MESSAGES.invalid);
    // The same link under another broadcast's number: its signature names this one.
    const other = await agent.post('/api/admin/broadcasts', { subject: 'Another', body, audience: { kind: 'all' } });
    await expectRefused(links[0].replace(`/r/${id}/`, `/r/${other.json().id}/`), 400, CLICK_MESSAGES.invalid);
    await expectRefused(`/r/${id}/${new URL(links[0]).pathname.split('/')[3]}`, 400, CLICK_MESSAGES.invalid);
    await expectRefused(links[0].replace(`/r/${id}/`, '/r/999999/'), 404, CLICK_MESSAGES.unknown);
    expect((await get('/r/not-a-number/x?u=https://www.example.com/')).statusCode).toBe(400);
    expect(await clicksOf()).toEqual(before);
  });
});
