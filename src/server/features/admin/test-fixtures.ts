/** Test-only helpers for the admin suites: a book, a purchase and an admin agent without the product seed. */
import { books, purchases } from '../../db/schema';
import { createTestApp, createUser, signedInAgent, type TestApp } from '../../test/helpers';

let counter = 0;

export async function insertBook(t: TestApp, fields: Partial<typeof books.$inferInsert> = {}) {
  counter += 1;
  const [row] = await t.database.db
    .insert(books)
    .values({
      title: `Fixture Book ${counter}`,
      slug: `fixture-book-${counter}`,
      coverImage: '/images/covers/x.svg',
      tagline: 'A tagline',
      synopsis: 'A synopsis of some length.',
      yearPublished: 2026,
      publisher: 'Harrow & Vane',
      featured: false,
      ...fields,
    })
    .returning();
  return row;
}

export async function insertPurchase(t: TestApp, fields: Pick<typeof purchases.$inferInsert, 'userId' | 'bookId' | 'format' | 'price'> & Partial<typeof purchases.$inferInsert>) {
  counter += 1;
  const [row] = await t.database.db
    .insert(purchases)
    .values({ orderReference: `TEST-${counter}-${Math.random().toString(36).slice(2, 8)}`, ...fields })
    .returning();
  return row;
}

export async function adminAgent(t: TestApp) {
  const admin = await createUser(t.database, { role: 'admin' });
  return { admin, agent: await signedInAgent(t.app, admin.id) };
}

/** An app without the product seed and an admin signed in to it: where most admin suites start. */
export async function unseededAppWithAdmin() {
  const t = await createTestApp({ seed: false });
  return { t, agent: (await adminAgent(t)).agent };
}
