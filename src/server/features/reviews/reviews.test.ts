import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '@shared/schemas/reviews';
import { auditLog, readerReviews } from '../../db/schema';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { featuredBookId } from '../checkout/test-support';
import { adminAgent, insertPurchase } from '../admin/test-fixtures';

function jsonLdBook(html: string): Record<string, unknown> {
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
  return blocks.find((b) => b['@type'] === 'Book' && b.offers?.length);
}

describe('verified reviews: readers who own the book review it once; the author approves, hides and answers', () => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  /** A signed-in reader owning `format` of the featured book (or nothing). */
  async function reader(format: string | null = 'ebook', fields: { displayName?: string } = {}) {
    const user = await createUser(t.database, fields);
    if (format) await insertPurchase(t, { userId: user.id, bookId, format, price: 999 });
    return { user, agent: await signedInAgent(t.app, user.id) };
  }
  const review = { rating: 5, text: 'Could not put it down; the last chapter floored me.' };

  it('a reader who owns no format is refused, sees canReview false and is not asked at the end', async () => {
    const { agent } = await reader(null);
    const mine = await agent.get(`/api/books/${bookId}/my-review`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ bookId, canReview: false, askAtEnd: false, review: null });
    const res = await agent.post(`/api/books/${bookId}/my-review`, review);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(REVIEW_MESSAGES.notOwned);
    expect((await agent.put(`/api/books/${bookId}/my-review`, review)).statusCode).toBe(403);
    expect((await agent.post(`/api/books/${bookId}/review-prompt/dismiss`)).statusCode).toBe(403);
    expect(await t.database.db.select().from(readerReviews)).toEqual([]);
  });

  it('a refunded or unpaid purchase does not make a reviewer; a gift claim or a print copy does', async () => {
    const refunded = await reader(null);
    await insertPurchase(t, { userId: refunded.user.id, bookId, format: 'ebook', price: 999, status: 'refunded' });
    expect((await refunded.agent.post(`/api/books/${bookId}/my-review`, review)).statusCode).toBe(403);
    const print = await reader('hardcover');
    expect((await print.agent.get(`/api/books/${bookId}/my-review`)).json().canReview).toBe(true);
    const giver = await createUser(t.database);
    const gift = await insertPurchase(t, { userId: giver.id, bookId, format: 'audiobook', price: 1499, kind: 'gift' });
    // The giver paid but does not own the format; the recipient's claim does.
    expect((await (await signedInAgent(t.app, giver.id)).get(`/api/books/${bookId}/my-review`)).json().canReview).toBe(false);
    const claimed = await reader(null);
    await insertPurchase(t, { userId: claimed.user.id, bookId, format: 'audiobook', price: 0, kind: 'gift_claim', paidByPurchaseId: gift.id });
    expect((await claimed.agent.get(`/api/books/${bookId}/my-review`)).json()).toMatchObject({ canReview: true, askAtEnd: true });
  });

  it('signed out, every reader route is 401; an unknown book is 404', async () => {
    const anon = await signedInAgent(t.app, (await createUser(t.database)).id);
    anon.bearer = null;
    anon.cookies.clear();
    expect((await anon.get(`/api/books/${bookId}/my-review`)).statusCode).toBe(401);
    expect((await anon.post(`/api/books/${bookId}/my-review`, review)).statusCode).toBe(401);
    const { agent } = await reader();
    expect((await agent.get('/api/books/999999/my-review')).statusCode).toBe(404);
    expect((await agent.post('/api/books/999999/my-review', review)).statusCode).toBe(404);
    expect((await agent.get('/api/books/abc/my-review')).statusCode).toBe(400);
  });

  it('validates the rating (a whole 1 to 5) and the text, and stores nothing on bad input', async () => {
    const { user, agent } = await reader();
    for (const [body, field, message] of [
      [{ rating: 0, text: review.text }, 'rating', REVIEW_MESSAGES.ratingRequired],
      [{ rating: 6, text: review.text }, 'rating', REVIEW_MESSAGES.ratingRequired],
      [{ rating: 4.5, text: review.text }, 'rating', REVIEW_MESSAGES.ratingRequired],
      [{ rating: '5', text: review.text }, 'rating', REVIEW_MESSAGES.ratingRequired],
      [{ text: review.text }, 'rating', REVIEW_MESSAGES.ratingRequired],
      [{ rating: 4, text: '  too short ' }, 'text', REVIEW_MESSAGES.textTooShort],
      [{ rating: 4, text: 'x'.repeat(2001) }, 'text', REVIEW_MESSAGES.textTooLong],
      [{ rating: 4, text: 'A fine book \u0000 indeed' }, 'text', null],
    ] as const) {
      const res = await agent.post(`/api/books/${bookId}/my-review`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (message) expect(res.json().fields?.[field]).toBe(message);
      else expect(res.json().fields?.[field]).toBeTruthy();
    }
    expect(await t.database.db.select().from(readerReviews).where(eq(readerReviews.userId, user.id))).toEqual([]);
  });

  it('one review per reader per book: the second POST is refused; PUT edits it and sends it back for approval', async () => {
    const { user, agent } = await reader('audiobook');
    const first = await agent.post(`/api/books/${bookId}/my-review`, review);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ bookId, rating: 5, text: review.text, status: 'pending', answer: null });

    const second = await agent.post(`/api/books/${bookId}/my-review`, { rating: 1, text: 'Changed my mind entirely.' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(REVIEW_MESSAGES.alreadyReviewed);
    // Two at once still make one row (the unique key decides).
    const racing = await Promise.all([1, 2].map(() => agent.post(`/api/books/${bookId}/my-review`, review)));
    expect(racing.map((r) => r.statusCode)).toEqual([409, 409]);
    expect(await t.database.db.select().from(readerReviews).where(eq(readerReviews.userId, user.id))).toHaveLength(1);

    // Approved, then edited: it leaves the home page until approved again.
    const { agent: admin } = await adminAgent(t);
    expect((await admin.post(`/api/admin/reviews/${first.json().id}/approve`)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/site' })).json().verifiedReviews.map((r: { id: number }) => r.id)).toContain(first.json().id);
    const edited = await agent.put(`/api/books/${bookId}/my-review`, { rating: 4, text: 'On reflection, the middle sags a little.' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: first.json().id, rating: 4, status: 'pending' });
    expect((await t.app.inject({ url: '/api/site' })).json().verifiedReviews.map((r: { id: number }) => r.id)).not.toContain(first.json().id);

    const mine = (await agent.get(`/api/books/${bookId}/my-review`)).json();
    expect(mine).toMatchObject({ canReview: true, askAtEnd: false, review: { rating: 4, text: 'On reflection, the middle sags a little.' } });
  });

  it('PUT without a review is 404, and never touches another reader\'s review', async () => {
    const other = await reader();
    const created = await other.agent.post(`/api/books/${bookId}/my-review`, review);
    expect(created.statusCode).toBe(201);
    const { agent } = await reader();
    const res = await agent.put(`/api/books/${bookId}/my-review`, { rating: 1, text: 'Trying to overwrite someone.' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(REVIEW_MESSAGES.noReview);
    const [row] = await t.database.db.select().from(readerReviews).where(eq(readerReviews.id, created.json().id));
    expect(row).toMatchObject({ rating: 5, text: review.text });
  });

  it('"Enjoyed it?" is asked until the reader reviews or dismisses it, and a dismissal is remembered', async () => {
    const { agent } = await reader('ebook');
    expect((await agent.get(`/api/books/${bookId}/my-review`)).json().askAtEnd).toBe(true);
    const dismissed = await agent.post(`/api/books/${bookId}/review-prompt/dismiss`);
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json()).toEqual({ success: true, message: REVIEW_MESSAGES.promptDismissed });
    expect((await agent.post(`/api/books/${bookId}/review-prompt/dismiss`)).statusCode).toBe(200);
    const after = (await agent.get(`/api/books/${bookId}/my-review`)).json();
    expect(after).toMatchObject({ canReview: true, askAtEnd: false, review: null });
    // Dismissed, the reader may still review it from elsewhere.
    expect((await agent.post(`/api/books/${bookId}/my-review`, review)).statusCode).toBe(201);
  });

  it('approve, hide and answer are the author\'s only, validated, and audited', async () => {
    const { agent } = await reader('ebook');
    const id = (await agent.post(`/api/books/${bookId}/my-review`, review)).json().id as number;
    const user = await reader();
    for (const [method, url, body] of [
      ['GET', '/api/admin/reviews', undefined],
      ['POST', `/api/admin/reviews/${id}/approve`, undefined],
      ['POST', `/api/admin/reviews/${id}/hide`, undefined],
      ['PUT', `/api/admin/reviews/${id}/answer`, { answer: 'Thank you!' }],
    ] as const) {
      const res = await user.agent.request({ method, url, payload: body });
      expect(res.statusCode, url).toBe(403);
    }
    const [row] = await t.database.db.select().from(readerReviews).where(eq(readerReviews.id, id));
    expect(row).toMatchObject({ status: 'pending', answer: null });

    const { agent: admin } = await adminAgent(t);
    const pending = (await admin.get('/api/admin/reviews?status=pending')).json() as Array<{ id: number; status: string }>;
    expect(pending.map((r) => r.id)).toContain(id);
    expect(pending.every((r) => r.status === 'pending')).toBe(true);
    expect((await admin.get('/api/admin/reviews?status=lost')).statusCode).toBe(400);

    const answered = await admin.put(`/api/admin/reviews/${id}/answer`, { answer: '  So glad it landed.  ' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({ id, answer: 'So glad it landed.', status: 'pending', bookTitle: 'What We Owe the Dead' });
    expect((await admin.put(`/api/admin/reviews/${id}/answer`, { answer: 'y'.repeat(1001) })).json().fields.answer).toBe(REVIEW_MESSAGES.answerTooLong);
    expect((await admin.post('/api/admin/reviews/999999/approve')).statusCode).toBe(404);

    expect((await admin.post(`/api/admin/reviews/${id}/hide`)).json().status).toBe('hidden');
    const hidden = (await admin.get('/api/admin/reviews?status=hidden')).json() as Array<{ id: number }>;
    expect(hidden.map((r) => r.id)).toContain(id);
    // The reader sees the answer beside their review.
    expect((await agent.get(`/api/books/${bookId}/my-review`)).json().review).toMatchObject({ status: 'hidden', answer: 'So glad it landed.' });

    const actions = await t.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'review'), eq(auditLog.targetId, String(id))));
    expect(actions.map((a) => a.action).sort()).toEqual(['review.answer', 'review.hide']);
  });
});

describe('verified reviews on the home page and in the JSON-LD rating', () => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://www.example.com' } });
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  async function write(rating: number, text: string, displayName: string) {
    const user = await createUser(t.database, { displayName });
    await insertPurchase(t, { userId: user.id, bookId, format: 'ebook', price: 999 });
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.post(`/api/books/${bookId}/my-review`, { rating, text });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }

  it('only approved reviews show and count; pending and hidden ones do not; the answer shows beside its review', async () => {
    const a = await write(5, 'The best thriller I read this year, by far.', 'Maya R.');
    const b = await write(4, 'Tense and humane; the brothers stayed with me.', 'Jon P.');
    const c = await write(1, 'Not for me, far too bleak for my taste.', 'Sam K.');
    const pendingOnly = await write(2, 'Still waiting for the author to read this.', 'Pat Q.');

    const before = await t.app.inject({ url: '/' });
    expect(jsonLdBook(before.body).aggregateRating).toBeUndefined();

    const { agent: admin } = await adminAgent(t);
    for (const id of [a, b, c]) expect((await admin.post(`/api/admin/reviews/${id}/approve`)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/reviews/${c}/hide`)).statusCode).toBe(200);
    expect((await admin.put(`/api/admin/reviews/${a}/answer`, { answer: 'Thank you, Maya.' })).statusCode).toBe(200);

    const site = (await t.app.inject({ url: '/api/site' })).json();
    expect(site.verifiedReviews).toEqual([
      { id: b, rating: 4, text: 'Tense and humane; the brothers stayed with me.', author: 'Jon P.', answer: null },
      { id: a, rating: 5, text: 'The best thriller I read this year, by far.', author: 'Maya R.', answer: 'Thank you, Maya.' },
    ]);
    expect(site.verifiedRating).toEqual({ value: 4.5, count: 2 });
    // The early-reader quotes and their displayed rating are unchanged beside them.
    expect(site.rating).toEqual({ value: 4.8, count: 3 });
    expect(site.reviews).toHaveLength(3);

    const book = jsonLdBook((await t.app.inject({ url: '/' })).body);
    expect(book.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4.5,
      bestRating: 5,
      worstRating: 1,
      ratingCount: 2,
      reviewCount: 2,
    });
    expect((book.review as Array<{ reviewBody: string }>).map((r) => r.reviewBody)).toEqual([
      'Tense and humane; the brothers stayed with me.',
      'The best thriller I read this year, by far.',
    ]);
    expect(JSON.stringify(book)).not.toContain('Still waiting');
    expect(site.verifiedReviews.map((r: { id: number }) => r.id)).not.toContain(pendingOnly);
  });
});
