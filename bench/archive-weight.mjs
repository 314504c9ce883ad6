// The public pages with a long archive (ADR 0067): the HTML of `/`, `/blog` and `/blog/page/2` with
// 2,000 published posts, which must weigh what it does with the seeded six (the home page carries the
// teaser's three posts, a blog page twelve). The posts are written straight into the site's embedded
// database while it is stopped (one INSERT, well under a second), then the site is started again on it.
import zlib from 'node:zlib';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

export const ARCHIVE_POSTS = 2000;
export const ARCHIVE_PAGES = ['/', '/blog', '/blog/page/2'];
/**
 * HTML a first view may take with the long archive: brotli KB as served (the home page's is part of its
 * 160 KB first-view budget in bench/lighthouse.mjs) and raw KB (what the browser parses). With every post
 * embedded, the home page was some 870 KB raw and /blog some 4.9 MB at 2,000 posts.
 */
export const HTML_BUDGET_KB = {
  '/': { br: 24, raw: 160 },
  '/blog': { br: 8, raw: 80 },
  '/blog/page/2': { br: 8, raw: 80 },
};

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

/** The HTML of each page as the site answers it: raw bytes and brotli bytes (what a browser downloads). */
export async function measureHtml(base) {
  const rows = [];
  for (const page of ARCHIVE_PAGES) {
    const res = await fetch(`${base}${page}`, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await res.arrayBuffer());
    const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
    rows.push({ page, status: res.status, rawKB: kb(body.length), brKB: kb(br.length), rawBytes: body.length, brBytes: br.length });
  }
  return rows;
}

/** Adds published posts until the site holds `total`, each a minute older than the last, all in the past. */
export async function seedArchive(dataDir, total = ARCHIVE_POSTS) {
  const db = new PGlite(path.join(dataDir, 'pglite'));
  try {
    const started = performance.now();
    const { rows } = await db.query('SELECT count(*)::int AS n FROM blog_posts');
    await db.query(
      `INSERT INTO blog_posts (title, slug, content, excerpt, published_at, is_published, tags)
       SELECT 'Notes from the archive, number ' || n, 'archive-' || n,
              '<p>A note kept for the record: a few paragraphs about the writing, as the author posts them.</p>',
              'A sentence or two on what this note is about, as long as the excerpts the author writes for the blog cards.',
              now() - interval '1 day' - n * interval '1 hour', true, ARRAY['archive']
       FROM generate_series($1::int, $2::int) AS n`,
      [rows[0].n + 1, total],
    );
    return Math.round(performance.now() - started);
  } finally {
    await db.close();
  }
}
