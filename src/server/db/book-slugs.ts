import { like, or, eq } from 'drizzle-orm';
import { slugify } from '../../shared/slug';
import type { DbOrTx } from './client';
import { books } from './schema';

/**
 * A free catalogue address for a new book: its title's slug, or with -2, -3... when another book has it.
 * The unique index stays the judge of a race between two new books of the same title.
 */
export async function uniqueBookSlug(db: DbOrTx, title: string): Promise<string> {
  const base = slugify(title) || 'book';
  const taken = new Set(
    (await db.select({ slug: books.slug }).from(books).where(or(eq(books.slug, base), like(books.slug, `${base}-%`)))).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
