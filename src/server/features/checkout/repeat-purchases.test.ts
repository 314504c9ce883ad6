/** No one pays twice (issue 25 points 1 and 2): owned digital formats, and a second print copy a moment later. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_PURCHASE_WINDOW_MS } from '@shared/schemas/checkout';
import { checkoutSessions } from '../../db/schema';
import { TestAgent, type TestApp } from '../../test/helpers';
import { TEST_ADDRESS, buy, checkoutSessionsOf, newBuyer, purchasesOf, storeApp } from './test-support';

describe('repeat purchases', () => {
  let t: TestApp;
  let bookId: number;
  beforeAll(async () => ({ t, bookId } = await storeApp()));
  afterAll(() => t.close());

  const sessionsOf = (userId: number) => checkoutSessionsOf(t, userId);
  const rowsOf = (userId: number, format: string) => purchasesOf(t, userId, format);

  it('refuses an owned digital format with 409 "Already in your library" before any checkout exists', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    await buy(agent, bookId, 'ebook');
    const before = await sessionsOf(user.id);

    const again = await agent.post('/api/checkout', { bookId, format: 'ebook' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'Already in your library', code: 'ALREADY_OWNED' });
    expect(await sessionsOf(user.id)).toHaveLength(before.length);
    expect(await rowsOf(user.id, 'ebook')).toHaveLength(1);

    // Another format is still for sale, and the owned one can still be given to someone else.
    expect((await agent.post('/api/checkout', { bookId, format: 'audiobook' })).statusCode).toBe(200);
    const gift = await agent.post('/api/checkout', {
      bookId,
      format: 'ebook',
      gift: { recipientName: 'Ada Reader', recipientEmail: 'ada@example.com' },
    });
    expect(gift.statusCode).toBe(200);
  });

  it('counts the ebook that came with a print copy as owned', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    await buy(agent, bookId, 'hardcover');
    const ebook = await agent.post('/api/checkout', { bookId, format: 'ebook' });
    expect(ebook.statusCode).toBe(409);
    expect(ebook.json().message).toBe('Already in your library');
  });

  it('a payment page left open is refused at Pay once the format is owned through another checkout', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    const first = (await agent.post('/api/checkout', { bookId, format: 'audiobook' })).json().url.split('/').pop();
    const second = (await agent.post('/api/checkout', { bookId, format: 'audiobook' })).json().url.split('/').pop();
    expect((await agent.post(`/api/checkout/sessions/${first}/pay`)).json().status).toBe('completed');

    const late = await agent.post(`/api/checkout/sessions/${second}/pay`);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Already in your library');
    const [closed] = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, second));
    expect(closed.status).toBe('cancelled');
    expect(await rowsOf(user.id, 'audiobook')).toHaveLength(1);
  });

  it('a second print copy a moment later is asked for first, and bought when confirmed', async () => {
    const { user, agent } = await newBuyer(t, bookId, []);
    await buy(agent, bookId, 'paperback');
    const again = await agent.post('/api/checkout', { bookId, format: 'paperback' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'You bought this a moment ago', code: 'RECENT_PURCHASE' });

    const confirmed = await agent.post('/api/checkout', { bookId, format: 'paperback', confirmRepeat: true });
    expect(confirmed.statusCode).toBe(200);
    const second = await agent.post(`/api/checkout/sessions/${confirmed.json().url.split('/').pop()}/pay`, { shippingAddress: TEST_ADDRESS });
    expect(second.json().status).toBe('completed');
    expect(await rowsOf(user.id, 'paperback')).toHaveLength(2);
    // The other print format is a different thing to buy.
    expect((await agent.post('/api/checkout', { bookId, format: 'hardcover' })).statusCode).toBe(200);
  });

  it('print can be bought again without asking once the moment has passed', async () => {
    const { agent } = await newBuyer(t, bookId, []);
    await buy(agent, bookId, 'hardcover');
    t.clock.advance(RECENT_PURCHASE_WINDOW_MS + 1000);
    try {
      expect((await agent.post('/api/checkout', { bookId, format: 'hardcover' })).statusCode).toBe(200);
    } finally {
      t.clock.advance(-(RECENT_PURCHASE_WINDOW_MS + 1000));
    }
  });

  it('GET /api/store/my-formats: owned formats and what was bought a moment ago, for the caller only', async () => {
    expect((await new TestAgent(t.app).get('/api/store/my-formats')).statusCode).toBe(401);
    const { agent } = await newBuyer(t, bookId, []);
    const empty = (await agent.get('/api/store/my-formats')).json();
    expect(empty.bookId).toBe(bookId);
    expect(empty.formats.every((f: { owned: boolean; recentPurchase: unknown }) => !f.owned && f.recentPurchase === null)).toBe(true);

    const paperback = await buy(agent, bookId, 'paperback');
    const mine = await agent.get('/api/store/my-formats');
    expect(mine.headers['cache-control']).toContain('no-store');
    const byFormat = Object.fromEntries(mine.json().formats.map((f: { format: string }) => [f.format, f]));
    expect(byFormat.paperback).toEqual({
      format: 'paperback',
      owned: false,
      recentPurchase: { orderReference: paperback.orderReference, purchasedAt: t.clock.now().toISOString(), confirmationPath: `/pay/${paperback.sessionId}` },
    });
    // The ebook that came with the paperback is in the library; it was not bought a moment ago.
    expect(byFormat.ebook).toMatchObject({ owned: true, recentPurchase: null });
    expect(byFormat.audiobook).toMatchObject({ owned: false, recentPurchase: null });
  });
});
