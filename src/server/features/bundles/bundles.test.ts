import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions } from '../../db/schema';
import { BUNDLE_MESSAGES } from '@shared/schemas/bundles';
import { type TestAgent, type TestApp, TestAgent as Agent, createUser, signedInAgent } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';
import { buy, newReader, storeApp, storeAppWithAdmin } from '../checkout/test-support';

describe('bundles (decision 0083)', () => {
  let t: TestApp;
  let bookId: number;
  let otherBookId: number;
  let admin: TestAgent;
  beforeAll(async () => {
    ({ t, bookId } = await storeApp());
    const books = (await t.app.inject({ method: 'GET', url: '/api/books' })).json() as Array<{ id: number; featured: boolean }>;
    otherBookId = books.find((b) => !b.featured)!.id;
    admin = (await adminAgent(t)).agent;
  });
  afterAll(() => t.close());

  const reader = () => newReader(t);
  const ebookAndAudiobook = (price = 1999, active = true) => ({
    name: 'E-book + audiobook',
    items: [
      { bookId, format: 'ebook' },
      { bookId, format: 'audiobook' },
    ],
    price,
    active,
  });
  const bundlesFor = async (agent: TestAgent) => (await agent.get('/api/bundles')).json().bundles as Array<Record<string, unknown> & { id: number }>;

  it('the admin creates, lists and changes a bundle; readers and visitors cannot', async () => {
    const created = await admin.post('/api/admin/bundles', ebookAndAudiobook());
    expect(created.statusCode, created.body).toBe(201);
    const bundle = created.json();
    expect(bundle).toMatchObject({ name: 'E-book + audiobook', price: 1999, displayPrice: '£19.99', active: true });
    expect(bundle.items.map((i: { format: string; listPrice: number }) => [i.format, i.listPrice])).toEqual([['ebook', 999], ['audiobook', 1499]]);
    expect((await admin.get('/api/admin/bundles')).json().map((b: { id: number }) => b.id)).toContain(bundle.id);

    const changed = await admin.put(`/api/admin/bundles/${bundle.id}`, { ...ebookAndAudiobook(1899), name: 'The set', items: [{ bookId, format: 'audiobook' }, { bookId: otherBookId, format: 'hardcover' }] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'The set', price: 1899 });
    expect(changed.json().items.map((i: { bookId: number; format: string }) => [i.bookId, i.format])).toEqual([[bookId, 'audiobook'], [otherBookId, 'hardcover']]);
    expect((await admin.put('/api/admin/bundles/999999', ebookAndAudiobook())).statusCode).toBe(404);

    const { agent } = await reader();
    expect((await agent.post('/api/admin/bundles', ebookAndAudiobook())).statusCode).toBe(403);
    expect((await agent.get('/api/admin/bundles')).statusCode).toBe(403);
    expect((await new Agent(t.app).get('/api/admin/bundles')).statusCode).toBe(401);
  });

  it('refuses bad bundles with the field messages, and stores nothing', async () => {
    const before = (await admin.get('/api/admin/bundles')).json().length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...ebookAndAudiobook(), name: ' ' }, BUNDLE_MESSAGES.name],
      [{ ...ebookAndAudiobook(), items: [{ bookId, format: 'ebook' }] }, BUNDLE_MESSAGES.items],
      [{ ...ebookAndAudiobook(), items: [{ bookId, format: 'ebook' }, { bookId, format: 'ebook' }] }, BUNDLE_MESSAGES.duplicate],
      [{ ...ebookAndAudiobook(), items: [{ bookId, format: 'pdf' }, { bookId, format: 'ebook' }] }, BUNDLE_MESSAGES.format],
      [{ ...ebookAndAudiobook(), price: 29 }, BUNDLE_MESSAGES.price],
      [{ ...ebookAndAudiobook(), price: 10.5 }, BUNDLE_MESSAGES.price],
      [{ ...ebookAndAudiobook(), items: [{ bookId: 987654, format: 'ebook' }, { bookId, format: 'ebook' }] }, 'No book has the id 987654'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/admin/bundles', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect((await admin.get('/api/admin/bundles')).json()).toHaveLength(before);
  });

  it('a visitor sees the bundle price; an ebook owner pays the bundle price minus what they paid for the ebook ("Complete your set")', async () => {
    const bundle = (await admin.post('/api/admin/bundles', { ...ebookAndAudiobook(1999), name: 'Complete listening set' })).json();
    const visitor = (await bundlesFor(new Agent(t.app))).find((b) => b.id === bundle.id)!;
    expect(visitor).toMatchObject({ price: 1999, yourPrice: 1999, displayYourPrice: '£19.99', completeYourSet: null, ownedWhole: false });
    expect((visitor.items as Array<{ owned: boolean }>).every((i) => !i.owned)).toBe(true);

    const { agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const mine = (await bundlesFor(agent)).find((b) => b.id === bundle.id)!;
    expect(mine).toMatchObject({ price: 1999, yourPrice: 1999 - 999, displayYourPrice: '£10.00', completeYourSet: 'Complete your set: £10.00', ownedWhole: false });
    // £10.00 for the audiobook is less than its own £14.99: the library offers it.
    expect(mine.addOffer).toBe('Add the audiobook for £10.00');
    expect(visitor.addOffer).toBeNull();
    // A bundle that leaves the audiobook dearer than on its own offers nothing.
    const dear = (await admin.post('/api/admin/bundles', { ...ebookAndAudiobook(2600), name: 'Dear set' })).json();
    expect((await bundlesFor(agent)).find((b) => b.id === dear.id)).toMatchObject({ yourPrice: 1601, completeYourSet: 'Complete your set: £16.01', addOffer: null });
    expect((mine.items as Array<{ format: string; owned: boolean }>).map((i) => [i.format, i.owned])).toEqual([['ebook', true], ['audiobook', false]]);

    // Owning both: nothing left to complete.
    await buy(agent, bookId, 'audiobook');
    expect((await bundlesFor(agent)).find((b) => b.id === bundle.id)).toMatchObject({ ownedWhole: true, completeYourSet: null });
  });

  it('never charges less than the minimum, and an inactive bundle is not offered', async () => {
    const cheap = (await admin.post('/api/admin/bundles', { ...ebookAndAudiobook(1000), name: 'Cheap set' })).json();
    const off = (await admin.post('/api/admin/bundles', { ...ebookAndAudiobook(1500, false), name: 'Hidden set' })).json();
    const { agent } = await reader();
    await buy(agent, bookId, 'ebook');
    const listed = await bundlesFor(agent);
    // £10.00 less the £9.99 paid for the e-book would be 1p: the minimum charge of £0.30 applies.
    expect(listed.find((b) => b.id === cheap.id)).toMatchObject({ yourPrice: 30, completeYourSet: 'Complete your set: £0.30' });
    expect(listed.find((b) => b.id === off.id)).toBeUndefined();
  });

  it('offers every format a reader lacks when a bundle holding one they own makes them cheaper (decision 0095)', async () => {
    const set = (await admin.post('/api/admin/bundles', { name: 'Everything', items: [{ bookId, format: 'ebook' }, { bookId, format: 'audiobook' }, { bookId, format: 'hardcover' }], price: 3999 })).json();
    const { agent } = await reader();
    expect((await bundlesFor(agent)).find((b) => b.id === set.id)).toMatchObject({ yourPrice: 3999, addOffer: null });
    await buy(agent, bookId, 'ebook');
    // £39.99 less the £9.99 paid is £30.00, less than the audiobook's £14.99 and the hardcover's £24.99 together.
    expect((await bundlesFor(agent)).find((b) => b.id === set.id)).toMatchObject({ yourPrice: 3000, addOffer: 'Add the audiobook and the hardcover for £30.00' });
  });
});

describe('buying a bundle (decision 0083)', () => {
  let t: TestApp;
  let bookId: number;
  let admin: TestAgent;
  beforeAll(async () => {
    ({ t, bookId, admin } = await storeAppWithAdmin());
  });
  afterAll(() => t.close());

  const set = async (price: number) =>
    (await admin.post('/api/admin/bundles', { name: 'E-book + audiobook', items: [{ bookId, format: 'ebook' }, { bookId, format: 'audiobook' }], price })).json() as { id: number };
  const libraryFormats = async (agent: TestAgent) => ((await agent.get('/api/library/books')).json() as Array<{ format: string }>).map((b) => b.format).sort();

  it('a reader who owns the ebook pays the bundle price minus the ebook price, once, and gets the audiobook', async () => {
    const bundle = await set(1999);
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    await buy(agent, bookId, 'ebook');
    const res = await agent.post('/api/checkout/bundle', { bundleId: bundle.id });
    expect(res.statusCode, res.body).toBe(200);
    // The same request again answers the same payment page.
    expect((await agent.post('/api/checkout/bundle', { bundleId: bundle.id })).json().url).toBe(res.json().url);
    const sessionId = (res.json().url as string).split('/').pop()!;
    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page.amount).toBe(1999 - 999);
    expect(page.lines).toHaveLength(1);
    expect(page.lines[0]).toMatchObject({ format: 'audiobook', quantity: 1, amount: 1000 });
    const paid = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await libraryFormats(agent)).toEqual(['audiobook', 'ebook', 'pdf']);
    const sessions = await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id));
    expect(sessions.filter((s) => s.status === 'completed').map((s) => s.amount).sort((a, b) => a - b)).toEqual([999, 1000]);

    // Now every part is owned: nothing more to buy.
    const again = await agent.post('/api/checkout/bundle', { bundleId: bundle.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Every format of this bundle is already in your library');
  });

  it('a reader who owns nothing pays the bundle price, shared over the parts by their own prices', async () => {
    const bundle = await set(1999);
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const sessionId = ((await agent.post('/api/checkout/bundle', { bundleId: bundle.id })).json().url as string).split('/').pop()!;
    const page = (await agent.get(`/api/checkout/sessions/${sessionId}`)).json();
    expect(page.amount).toBe(1999);
    // £9.99 and £14.99 of £24.98: 799 and 1199 rounded down, the leftover penny on the first.
    expect(page.lines.map((l: { format: string; amount: number }) => [l.format, l.amount])).toEqual([['ebook', 800], ['audiobook', 1199]]);
  });

  it('refuses a visitor, bad input, an unknown or switched-off bundle, and starts no payment', async () => {
    const bundle = await set(1999);
    expect((await new Agent(t.app).post('/api/checkout/bundle', { bundleId: bundle.id })).statusCode).toBe(401);
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const bad = await agent.post('/api/checkout/bundle', { bundleId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('A valid bundleId is required');
    expect((await agent.post('/api/checkout/bundle', { bundleId: 987654 })).json().message).toBe(BUNDLE_MESSAGES.notFound);
    await admin.put(`/api/admin/bundles/${bundle.id}`, { name: 'E-book + audiobook', items: [{ bookId, format: 'ebook' }, { bookId, format: 'audiobook' }], price: 1999, active: false });
    const off = await agent.post('/api/checkout/bundle', { bundleId: bundle.id });
    expect(off.statusCode).toBe(404);
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, user.id))).toEqual([]);
  });
});
