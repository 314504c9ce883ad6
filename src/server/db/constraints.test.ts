import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers';
import { SQLSTATE, refusal } from '../test/sqlstate';
import { bookPrices, books, digitalAssets, purchases, reviews, users } from './schema';
import type { Database } from './client';

describe('schema constraints', () => {
  let database: Database & { drop(): Promise<void> };
  let userId: number;
  let bookId: number;
  beforeAll(async () => {
    database = await createTestDatabase();
    const [u] = await database.db
      .insert(users)
      .values({ username: 'Reader', email: 'Reader@Example.com', passwordHash: 'x' })
      .returning();
    userId = u.id;
    const [b] = await database.db
      .insert(books)
      .values({ title: 'T', slug: 't', coverImage: '/c.svg', tagline: 't', synopsis: 'long enough', yearPublished: 2026, publisher: 'P', featured: true })
      .returning();
    bookId = b.id;
  });
  afterAll(async () => database.drop());

  const UNIQUE = SQLSTATE.uniqueViolation;
  const CHECK = SQLSTATE.checkViolation;
  const FOREIGN_KEY = SQLSTATE.foreignKeyViolation;
  const violates = async (p: Promise<unknown>, code: string, constraint?: string) => {
    const r = await refusal(p);
    expect(r.code).toBe(code);
    if (constraint) expect(r.constraint).toBe(constraint);
  };

  it('creates every table', async () => {
    const rows = await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const names = (rows as unknown as { rows: Array<{ table_name: string }> }).rows.map((r) => r.table_name);
    expect(names).toEqual(
      expect.arrayContaining([
        'users', 'sessions', 'books', 'book_prices', 'reviews', 'purchases', 'purchase_customer_info',
        'checkout_sessions', 'payment_events', 'digital_assets', 'blog_posts', 'newsletter_subscribers',
        'contact_messages', 'user_activities', 'mail_outbox', 'site_settings', 'audit_log',
      ]),
    );
  });

  it('keeps usernames and emails unique regardless of case', async () => {
    await violates(database.db.insert(users).values({ username: 'READER', email: 'other@example.com', passwordHash: 'x' }), UNIQUE, 'users_username_lower_uq');
    await violates(database.db.insert(users).values({ username: 'other', email: 'reader@example.COM', passwordHash: 'x' }), UNIQUE, 'users_email_lower_uq');
  });

  it('allows one featured book only', async () => {
    await violates(
      database.db.insert(books).values({ title: 'U', slug: 'u', coverImage: '/c.svg', tagline: 't', synopsis: 'long enough', yearPublished: 2027, publisher: 'P', featured: true }),
      UNIQUE,
      'books_single_featured_uq',
    );
  });

  it('refuses prices of zero or less and unknown formats', async () => {
    await violates(database.db.insert(bookPrices).values({ bookId, format: 'ebook', price: 0 }), CHECK, 'book_prices_price_ck');
    await violates(database.db.insert(bookPrices).values({ bookId, format: 'scroll', price: 100 }), CHECK, 'book_prices_format_ck');
  });

  it('accepts ratings from 1 to 5 in halves only', async () => {
    await database.db.insert(reviews).values({ bookId, rating: 4.5, text: 'x', author: 'a', title: 't' });
    await violates(database.db.insert(reviews).values({ bookId, rating: 4.3, text: 'x', author: 'a', title: 't' }), CHECK, 'reviews_rating_ck');
    await violates(database.db.insert(reviews).values({ bookId, rating: 6, text: 'x', author: 'a', title: 't' }), CHECK, 'reviews_rating_ck');
    await violates(database.db.insert(reviews).values({ bookId, rating: 0.5, text: 'x', author: 'a', title: 't' }), CHECK, 'reviews_rating_ck');
  });

  it('never lets the download count pass the allowance', async () => {
    const [p] = await database.db
      .insert(purchases)
      .values({ userId, bookId, format: 'ebook', price: 999, orderReference: 'ORD-1' })
      .returning();
    expect(p).toMatchObject({ status: 'completed', downloadCount: 0, maxDownloads: 1, downloadUsed: false });
    await database.db.execute(sql`update purchases set download_count = 1 where id = ${p.id}`);
    await violates(database.db.execute(sql`update purchases set download_count = 2 where id = ${p.id}`), CHECK, 'purchases_downloads_ck');
    await violates(database.db.insert(purchases).values({ userId, bookId, format: 'ebook', price: 999, orderReference: 'ORD-1' }), UNIQUE, 'purchases_order_reference_uq');
    await violates(database.db.insert(purchases).values({ userId, bookId, format: 'ebook', price: -1, orderReference: 'ORD-2' }), CHECK, 'purchases_price_ck');
  });

  it('lets only rows paid for by another purchase go without a price of their own', async () => {
    const [paid] = await database.db
      .insert(purchases)
      .values({ userId, bookId, format: 'hardcover', price: 2499, orderReference: 'ORD-P' })
      .returning();
    const [included] = await database.db
      .insert(purchases)
      .values({ userId, bookId, format: 'ebook', price: 0, kind: 'included', paidByPurchaseId: paid.id, orderReference: 'ORD-I' })
      .returning();
    expect(included).toMatchObject({ kind: 'included', paidByPurchaseId: paid.id, refundedAt: null });
    // An included row must name its paying purchase and carry no price; a paid row must not name one.
    await violates(database.db.insert(purchases).values({ userId, bookId, format: 'ebook', price: 0, kind: 'included', orderReference: 'ORD-X1' }), CHECK, 'purchases_price_ck');
    await violates(
      database.db.insert(purchases).values({ userId, bookId, format: 'ebook', price: 5, kind: 'gift_claim', paidByPurchaseId: paid.id, orderReference: 'ORD-X2' }),
      CHECK,
      'purchases_price_ck',
    );
    await violates(
      database.db.insert(purchases).values({ userId, bookId, format: 'ebook', price: 999, paidByPurchaseId: paid.id, orderReference: 'ORD-X3' }),
      CHECK,
      'purchases_price_ck',
    );
    await violates(database.db.insert(purchases).values({ userId, bookId, format: 'ebook', price: 999, kind: 'loan', orderReference: 'ORD-X4' }), CHECK, 'purchases_kind_ck');
  });

  it('keeps a free book free, unpaid for by another row, and once per reader, book and format (decision 0097)', async () => {
    await violates(database.db.insert(purchases).values({ userId, bookId, format: 'audiobook', price: 1, kind: 'free', orderReference: 'FREE-X1' }), CHECK, 'purchases_price_ck');
    const [paid] = await database.db.insert(purchases).values({ userId, bookId, format: 'audiobook', price: 1499, orderReference: 'ORD-F1' }).returning();
    await violates(
      database.db.insert(purchases).values({ userId, bookId, format: 'audiobook', price: 0, kind: 'free', paidByPurchaseId: paid.id, orderReference: 'FREE-X2' }),
      CHECK,
      'purchases_price_ck',
    );
    await database.db.insert(purchases).values({ userId, bookId, format: 'pdf', price: 0, kind: 'free', orderReference: 'FREE-1' });
    await violates(database.db.insert(purchases).values({ userId, bookId, format: 'pdf', price: 0, kind: 'free', orderReference: 'FREE-2' }), UNIQUE, 'purchases_free_uq');
  });

  it('enforces foreign keys and digital-only assets', async () => {
    await violates(database.db.insert(purchases).values({ userId: 9999, bookId, format: 'ebook', price: 999, orderReference: 'ORD-3' }), FOREIGN_KEY, 'purchases_user_id_users_id_fk');
    await violates(
      database.db.insert(digitalAssets).values({ bookId, format: 'hardcover', fileUrl: 'k', fileName: 'f', contentType: 'x', fileSizeKb: 1 }),
      CHECK,
      'digital_assets_format_ck',
    );
  });
});
