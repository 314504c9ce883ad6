import { desc, eq } from 'drizzle-orm';
import { slugify, type AdminPost, type AdminPostSummary } from '@shared/schemas/admin';
import type { DbOrTx } from '../../db/client';
import { blogPosts, books } from '../../db/schema';
import { badRequest } from '../../platform/errors';
import { sanitizePostHtml } from '../blog/service';

const columns = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  excerpt: blogPosts.excerpt,
  content: blogPosts.content,
  coverImage: blogPosts.coverImage,
  bookId: blogPosts.bookId,
  tags: blogPosts.tags,
  isPublished: blogPosts.isPublished,
  publishedAt: blogPosts.publishedAt,
  updatedAt: blogPosts.updatedAt,
};
type Row = Omit<AdminPost, 'publishedAt' | 'updatedAt'> & { publishedAt: Date; updatedAt: Date };

export function toAdminPost(row: Row): AdminPost {
  return { ...row, publishedAt: row.publishedAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function listAdminPosts(db: DbOrTx): Promise<AdminPostSummary[]> {
  const { content: _content, ...summary } = columns;
  const rows = await db.select(summary).from(blogPosts).orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id));
  return rows.map((r) => ({ ...r, publishedAt: r.publishedAt.toISOString(), updatedAt: r.updatedAt.toISOString() }));
}

export async function getAdminPost(db: DbOrTx, id: number, lock = false): Promise<AdminPost | null> {
  const query = db.select(columns).from(blogPosts).where(eq(blogPosts.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ? toAdminPost(row) : null;
}

export { columns as postColumns };

/** The stored form of an edited post: HTML cleaned on save, slug derived from the title when blank. */
export async function preparePost(
  db: DbOrTx,
  input: { title: string; slug: string; excerpt: string; content: string; coverImage: string; bookId: number | null; tags: string[] },
) {
  const slug = input.slug || slugify(input.title);
  if (!slug) throw badRequest('Slug is required', { slug: 'Slug is required' });
  if (input.bookId !== null) {
    const [book] = await db.select({ id: books.id }).from(books).where(eq(books.id, input.bookId));
    if (!book) throw badRequest('Book not found', { bookId: 'Book not found' });
  }
  const content = sanitizePostHtml(input.content);
  if (!content.trim()) throw badRequest('Content is required', { content: 'Content is required' });
  return {
    title: input.title,
    slug,
    excerpt: input.excerpt,
    content,
    coverImage: input.coverImage || null,
    bookId: input.bookId,
    tags: [...new Set(input.tags)],
  };
}
