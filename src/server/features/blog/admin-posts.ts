import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { slugify, type AdminPost, type PostPage, type postInputSchema } from '@shared/schemas/admin';
import type { Cursor } from '@shared/schemas/pages';
import type { Db, DbOrTx } from '../../db/client';
import { blogPosts, books } from '../../db/schema';
import { afterCursor, cursorKey, keysetOrder, keysetPage, type Keyset } from '../../db/keyset';
import { badRequest, conflict, notFound } from '../../platform/http/errors';
import { getSetting } from '../../platform/operations/settings';
import { audit, type ActorId } from '../../platform/operations/audit';
import { uniqueViolation } from '../../platform/storage/db-errors';
import { sanitizePostHtml } from './sanitize';

/** A post as the route received it: validated, defaults applied. */
type PostInput = z.output<typeof postInputSchema>;

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

function toAdminPost(row: Row): AdminPost {
  return { ...row, publishedAt: row.publishedAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** Newest first; the keyset of blog_posts_admin_order_idx, read backwards. */
const POSTS_NEWEST_FIRST: Keyset = { sort: blogPosts.publishedAt, id: blogPosts.id, type: 'timestamptz', direction: 'desc' };

/** One page of every post, drafts included (decision 0071). */
export async function listAdminPosts(db: DbOrTx, query: { after?: Cursor; limit: number }): Promise<PostPage> {
  const { content: _content, ...summary } = columns;
  const found = await db
    .select({ ...summary, cursorKey: cursorKey(POSTS_NEWEST_FIRST) })
    .from(blogPosts)
    .where(afterCursor(POSTS_NEWEST_FIRST, query.after))
    .orderBy(...keysetOrder(POSTS_NEWEST_FIRST))
    .limit(query.limit + 1);
  const { items, nextCursor } = keysetPage(found, query.limit, (r) => r.id);
  return {
    items: items.map(({ cursorKey: _key, ...r }) => ({ ...r, publishedAt: r.publishedAt.toISOString(), updatedAt: r.updatedAt.toISOString() })),
    nextCursor,
  };
}

export async function getAdminPost(db: DbOrTx, id: number, lock = false): Promise<AdminPost | null> {
  const query = db.select(columns).from(blogPosts).where(eq(blogPosts.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ? toAdminPost(row) : null;
}


/** The stored form of an edited post: HTML cleaned on save, slug derived from the title when blank. */
async function preparePost(db: DbOrTx, input: PostInput) {
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

async function refuseTakenSlug<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) !== null) throw conflict('A post with this slug already exists', { slug: 'A post with this slug already exists' });
    throw error;
  }
}

export async function createPost(db: Db, input: PostInput, actorId: number, now: Date): Promise<AdminPost> {
  const values = await preparePost(db, input);
  const content = await getSetting(db, 'site.content');
  return refuseTakenSlug(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(blogPosts)
        .values({
          ...values,
          isPublished: input.isPublished,
          publishedAt: now,
          authorId: actorId,
          authorName: content?.authorName ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning(columns);
      await audit(tx, actorId, { action: 'post.create', targetType: 'post', targetId: row.id, details: { slug: row.slug, isPublished: row.isPublished } }, now);
      return toAdminPost(row);
    }),
  );
}

export async function updatePost(db: Db, id: number, input: PostInput, actorId: ActorId, now: Date): Promise<AdminPost> {
  const values = await preparePost(db, input);
  return refuseTakenSlug(() =>
    db.transaction(async (tx) => {
      const before = await getAdminPost(tx, id, true);
      if (!before) throw notFound('Post not found');
      const publishing = input.isPublished && !before.isPublished;
      const [row] = await tx
        .update(blogPosts)
        .set({
          ...values,
          isPublished: input.isPublished,
          // A draft going live is dated the day it is published.
          ...(publishing ? { publishedAt: now } : {}),
          updatedAt: now,
        })
        .where(eq(blogPosts.id, before.id))
        .returning(columns);
      await audit(tx, actorId, { action: 'post.update', targetType: 'post', targetId: row.id, details: { slug: row.slug, isPublished: row.isPublished } }, now);
      return toAdminPost(row);
    }),
  );
}

export function setPostPublished(db: Db, id: number, isPublished: boolean, actorId: ActorId, now: Date): Promise<AdminPost> {
  return db.transaction(async (tx) => {
    const before = await getAdminPost(tx, id, true);
    if (!before) throw notFound('Post not found');
    const publishing = isPublished && !before.isPublished;
    const [row] = await tx
      .update(blogPosts)
      .set({ isPublished, ...(publishing ? { publishedAt: now } : {}), updatedAt: now })
      .where(eq(blogPosts.id, before.id))
      .returning(columns);
    await audit(tx, actorId, { action: isPublished ? 'post.publish' : 'post.unpublish', targetType: 'post', targetId: row.id, details: { slug: row.slug } }, now);
    return toAdminPost(row);
  });
}
