import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_PRICES, PURCHASE_FORMATS } from '@shared/constants';
import type { Db } from '../../db/client';
import { uniqueBookSlug } from '../../db/book-slugs';
import { blogPosts, bookPrices, books, digitalAssets, reviews, users } from '../../db/schema';
import type { FileStore } from '../storage/files';
import { hashPassword } from '../security/passwords';
import { findProjectRoot } from '../../project-root';
import { ensureSetting } from './settings';
import * as content from '../../db/seed/content';
import { ensureDemoReader, lockDemoReader } from './demo-reader';

export const SEED_FILES = [
  { format: 'ebook', file: 'what-we-owe-the-dead.epub', contentType: 'application/epub+zip' },
  { format: 'pdf', file: 'what-we-owe-the-dead-sample.pdf', contentType: 'application/pdf' },
  { format: 'audiobook', file: 'what-we-owe-the-dead-audio-sample.mp3', contentType: 'audio/mpeg' },
] as const;

export function seedFilesDir(): string {
  return path.join(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))), 'src/server/db/seed/files');
}

export interface SeedOptions {
  admin?: { username: string; email: string; password: string };
  log?: (message: string) => void;
  /** Create the demo reader of the newsletter section's demo Login (config.demoLoginEnabled). */
  demoReader?: boolean;
}

/** Finds a book by title or creates it; never changes an existing book (the admin may have edited it). */
async function ensureBook(db: Db, book: typeof content.featuredBook & { featured: boolean; teaserVideoId?: string }) {
  const [existing] = await db.select({ id: books.id }).from(books).where(eq(books.title, book.title)).limit(1);
  if (existing) return existing.id;
  const [row] = await db
    .insert(books)
    .values({
      title: book.title,
      slug: await uniqueBookSlug(db, book.title),
      tagline: book.tagline,
      synopsis: book.synopsis,
      coverImage: book.coverImage,
      yearPublished: book.yearPublished,
      publisher: book.publisher,
      featured: book.featured,
      teaserVideoId: book.teaserVideoId ?? null,
    })
    .returning({ id: books.id });
  return row.id;
}

/**
 * Puts the product's content in place. Idempotent: every step inserts only what is missing, so running it
 * on every start (and from several instances at once) changes nothing the second time.
 */
export async function seed(db: Db, files: FileStore, options: SeedOptions = {}): Promise<void> {
  const log = options.log ?? (() => undefined);
  await db.transaction(async (tx) => {
    // One seeder at a time across instances sharing a database.
    await tx.execute(sql`select pg_advisory_xact_lock(724117002)`);
    const featuredId = await ensureBook(tx as unknown as Db, { ...content.featuredBook, featured: true });
    const upcomingId = await ensureBook(tx as unknown as Db, { ...content.upcomingBook, featured: false });

    await tx
      .insert(bookPrices)
      .values(PURCHASE_FORMATS.map((format) => ({ bookId: featuredId, format, price: DEFAULT_PRICES[format] })))
      .onConflictDoNothing();

    const [{ n: reviewCount }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(reviews)
      .where(eq(reviews.bookId, featuredId));
    if (reviewCount === 0) {
      await tx.insert(reviews).values(content.reviews.map((r) => ({ ...r, bookId: featuredId })));
    }

    const bookIdFor = (ref: 'featured' | 'upcoming' | null) =>
      ref === 'featured' ? featuredId : ref === 'upcoming' ? upcomingId : null;
    await tx
      .insert(blogPosts)
      .values(
        content.blogPosts.map((p) => ({
          slug: p.slug,
          title: p.title,
          excerpt: p.excerpt,
          content: p.content,
          publishedAt: new Date(p.publishedAt),
          authorName: p.authorName,
          tags: p.tags,
          bookId: bookIdFor(p.book),
          isPublished: true,
        })),
      )
      .onConflictDoNothing();

    await ensureSetting(tx, 'site.content', content.siteContent);
    await ensureSetting(tx, 'site.formats', content.purchaseFormats);
    await ensureSetting(tx, 'site.gallery', content.galleryCovers);
  });

  await ensureSampleFiles(db, files);
  if (options.admin) await ensureAdmin(db, options.admin, log);
  if (options.demoReader) await ensureDemoReader(db);
  else if (options.demoReader === false && (await lockDemoReader(db))) log('Demo login is off: the demo reader was locked.');
}

async function ensureSampleFiles(db: Db, files: FileStore): Promise<void> {
  const [featured] = await db.select({ id: books.id }).from(books).where(eq(books.featured, true)).limit(1);
  if (!featured) return;
  for (const sample of SEED_FILES) {
    const [asset] = await db
      .select()
      .from(digitalAssets)
      .where(and(eq(digitalAssets.bookId, featured.id), eq(digitalAssets.format, sample.format)))
      .limit(1);
    // An asset row whose file is present is left alone: the admin may have replaced it.
    if (asset && (await files.stat(asset.fileUrl))) continue;
    const data = await fs.readFile(path.join(seedFilesDir(), sample.file));
    const key = asset?.fileUrl ?? `books/${featured.id}/${sample.format}/${sample.file}`;
    await files.put(key, data, sample.contentType);
    if (!asset) {
      await db
        .insert(digitalAssets)
        .values({
          bookId: featured.id,
          format: sample.format,
          fileUrl: key,
          fileName: sample.file,
          contentType: sample.contentType,
          fileSizeKb: Math.ceil(data.length / 1024),
        })
        .onConflictDoNothing();
    }
  }
}

/** Makes sure the operator's admin exists; an existing account keeps its password. */
async function ensureAdmin(db: Db, admin: NonNullable<SeedOptions['admin']>, log: (m: string) => void) {
  const [existing] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${admin.username}) or lower(${users.email}) = lower(${admin.email})`)
    .limit(1);
  if (existing) {
    if (existing.role !== 'admin') {
      await db.update(users).set({ role: 'admin' }).where(eq(users.id, existing.id));
      log(`Existing account ${admin.username} promoted to admin (password unchanged).`);
    }
    return;
  }
  await db
    .insert(users)
    .values({
      username: admin.username,
      email: admin.email,
      displayName: admin.username,
      passwordHash: await hashPassword(admin.password),
      role: 'admin',
    })
    .onConflictDoNothing();
  log(`Admin account ${admin.username} created.`);
}
