import fs from 'node:fs';
import path from 'node:path';
import { parseRssFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFilesDir } from '../../platform/operations/seed';
import { type TestApp, TestAgent, createTestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { featuredBookId, newBuyer, purchaseOf } from '../checkout/test-support';
import { FEED_ADDRESS_LIMIT } from './service';

describe('the audiobook in a podcast app (private feed)', () => {
  let t: TestApp;
  let bookId: number;
  const mp3 = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-audio-sample.mp3'));

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  const feedLink = () => `/api/library/${bookId}/audiobook/feed-link`;
  const pathOf = (url: string) => new URL(url).pathname;
  const fetchPath = (url: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.5') =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress });

  it('gives the owner a feed that parses as a podcast, one episode per chapter with title, duration and cover', async () => {
    const owner = await newBuyer(t, bookId, ['audiobook']);
    const link = await owner.agent.get(feedLink());
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json().message).toBe('Your private podcast feed address is ready. Add it to your podcast app; do not share it.');
    const { feedUrl } = link.json();
    expect(feedUrl).toMatch(/^http:\/\/localhost:3000\/files\/podcast\/\d+-[\w-]+$/);
    // Asked again, the same address.
    expect((await owner.agent.get(feedLink())).json().feedUrl).toBe(feedUrl);

    const res = await fetchPath(pathOf(feedUrl));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private');
    const feed = parseRssFeed(res.body);
    expect(feed.title).toBe('What We Owe the Dead');
    expect(feed.itunes?.author).toBe('Callum Reyes');
    expect(feed.itunes?.block).toBe(true);
    expect(feed.itunes?.image).toMatch(/^http:\/\/localhost:3000\/images\/covers\//);
    expect(feed.items?.map((i) => i.title)).toEqual(['Opening credits', 'Chapter One: The Return']);
    const [first, second] = feed.items!;
    expect(first.itunes?.duration).toBe(6);
    expect(second.itunes?.duration).toBe(21);
    expect(first.itunes?.image).toBe(feed.itunes?.image);
    expect(first.itunes?.episode).toBe(1);
    expect(second.itunes?.episode).toBe(2);
    for (const item of feed.items!) {
      expect(item.enclosures).toHaveLength(1);
      expect(item.enclosures![0].type).toBe('audio/mpeg');
    }

    // Each enclosure hands out a short-lived signed link that answers Range with 206.
    const enclosure = first.enclosures![0];
    const hop = await fetchPath(pathOf(enclosure.url!));
    expect(hop.statusCode).toBe(302);
    expect(hop.headers.location).toMatch(/^\/files\/episode\/\d+-1-\d+-\d{13}-[\w-]+\/1\.mp3$/);
    const whole = await fetchPath(hop.headers.location as string);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['cache-control']).toBe('private');
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(Number(whole.headers['content-length'])).toBe(enclosure.length);
    // The episode is a run of whole MPEG frames from the master itself: it starts on a frame header.
    expect(whole.rawPayload[0]).toBe(0xff);
    expect(mp3.indexOf(whole.rawPayload)).toBeGreaterThan(0);
    const part = await fetchPath(hop.headers.location as string, { range: 'bytes=10-99' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${enclosure.length}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(10, 100))).toBe(true);

    // The two chapters together are the whole audio, back to back.
    const secondHop = await fetchPath(pathOf(second.enclosures![0].url!));
    const secondWhole = await fetchPath(secondHop.headers.location as string);
    expect(secondWhole.rawPayload.length).toBe(second.enclosures![0].length);
    expect(mp3.indexOf(secondWhole.rawPayload)).toBe(mp3.indexOf(whole.rawPayload) + whole.rawPayload.length);

    // Listening through the feed never spends the download.
    expect(await purchaseOf(t, owner.user.id, 'audiobook')).toMatchObject({ downloadCount: 0, downloadUsed: false, lastDownloaded: null });
    const [item] = (await owner.agent.get('/api/library/books')).json();
    expect(item).toMatchObject({ format: 'audiobook', downloadCount: 0, downloadUsed: false, resumeUntil: null });
  });

  it('gives the address to the owner only: anonymous 401, a reader without the audiobook 403', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: feedLink() });
    expect(anonymous.statusCode).toBe(401);
    // Signed out but with the site's CSRF token: what is missing is the reader.
    const anonymousRegenerate = await new TestAgent(t.app).post(`${feedLink()}/regenerate`);
    expect(anonymousRegenerate.statusCode).toBe(401);
    const other = await newBuyer(t, bookId, ['ebook']);
    const refused = await other.agent.get(feedLink());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('You have not purchased this format');
    expect((await other.agent.post(`${feedLink()}/regenerate`)).statusCode).toBe(403);
  });

  it('stops an address when the reader regenerates it (410) and answers 404 for an address that never was', async () => {
    const owner = await newBuyer(t, bookId, ['audiobook']);
    const old = (await owner.agent.get(feedLink())).json().feedUrl as string;
    const oldFeed = parseRssFeed((await fetchPath(pathOf(old))).body);
    const oldHop = await fetchPath(pathOf(oldFeed.items![0].enclosures![0].url!));

    const regenerated = await owner.agent.post(`${feedLink()}/regenerate`);
    expect(regenerated.statusCode).toBe(200);
    expect(regenerated.json().message).toBe('A new feed address is ready. The old address no longer works.');
    const fresh = regenerated.json().feedUrl as string;
    expect(fresh).not.toBe(old);
    expect((await owner.agent.get(feedLink())).json().feedUrl).toBe(fresh);

    const gone = await fetchPath(pathOf(old));
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe('This podcast feed is no longer available.');
    expect((await fetchPath(pathOf(oldFeed.items![0].enclosures![0].url!))).statusCode).toBe(410);
    // A signed episode link handed out before stops with its feed.
    expect((await fetchPath(oldHop.headers.location as string)).statusCode).toBe(410);
    expect((await fetchPath(pathOf(fresh))).statusCode).toBe(200);

    // A made-up or tampered address is simply not there.
    const tampered = pathOf(fresh).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetchPath(tampered)).statusCode).toBe(404);
    expect((await fetchPath('/files/podcast/999999-abcdefghijklmnopqrstuvwxyz')).statusCode).toBe(404);
  });

  it('stops the feed when the audiobook is refunded (410)', async () => {
    const owner = await newBuyer(t, bookId, ['audiobook']);
    const url = (await owner.agent.get(feedLink())).json().feedUrl as string;
    expect((await fetchPath(pathOf(url))).statusCode).toBe(200);
    const { agent: admin } = await adminAgent(t);
    const purchase = await purchaseOf(t, owner.user.id, 'audiobook');
    expect((await admin.post(`/api/admin/orders/${purchase.id}/refund`)).statusCode).toBe(200);
    const gone = await fetchPath(pathOf(url));
    expect(gone.statusCode).toBe(410);
    expect((await owner.agent.get(feedLink())).statusCode).toBe(403);
  });

  it('flags a feed fetched from more addresses in a day than a household uses, for the author to see', async () => {
    const owner = await newBuyer(t, bookId, ['audiobook']);
    const url = pathOf((await owner.agent.get(feedLink())).json().feedUrl);
    const { agent: admin } = await adminAgent(t);
    const flagged = async () => ((await admin.get('/api/admin/audiobook-feeds/flagged')).json().feeds as Array<{ userId: number; addresses: number }>).filter((f) => f.userId === owner.user.id);

    // A household's phones, laptop and the same address again and again: not flagged.
    for (let i = 1; i <= FEED_ADDRESS_LIMIT; i++) {
      expect((await fetchPath(url, {}, `198.51.100.${i}`)).statusCode).toBe(200);
      expect((await fetchPath(url, {}, `198.51.100.${i}`)).statusCode).toBe(200);
    }
    expect(await flagged()).toEqual([]);
    expect((await fetchPath(url, {}, '192.0.2.77')).statusCode).toBe(200);
    const [row] = await flagged();
    expect(row).toMatchObject({ addresses: FEED_ADDRESS_LIMIT + 1, username: owner.user.username, bookTitle: 'What We Owe the Dead' });
    // The list is the author's alone.
    expect((await owner.agent.get('/api/admin/audiobook-feeds/flagged')).statusCode).toBe(403);
  });
});
