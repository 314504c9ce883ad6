import zlib from 'node:zlib';
import { it } from 'vitest';
import { sql } from 'drizzle-orm';
// eslint-disable-next-line no-restricted-imports
import { renderApp } from '@client/entry-server';
import { createTestApp } from './test/helpers';

it('measures', async () => {
  const t = await createTestApp({ renderApp, env: { SITE_CACHE_MS: '600000' } });
  const now = t.clock.now().toISOString();
  const out: string[] = [];
  for (const total of [20, 2000]) {
    const have = Number(((await t.database.db.execute(sql`SELECT count(*)::int AS n FROM blog_posts`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
    await t.database.db.execute(sql`
      INSERT INTO blog_posts (title, slug, content, excerpt, published_at, is_published, tags)
      SELECT 'Archive note ' || lpad(n::text, 4, '0'), 'archive-note-' || lpad(n::text, 4, '0'),
             '<p>A note from the archive, kept for the record.</p>',
             'A short excerpt of the archive note, about the length of the excerpts the author writes for her posts: a sentence or two that says what the post is about and why a reader might want it.',
             ${now}::timestamptz - interval '1 hour' - n * interval '1 minute', true, ARRAY['archive']
      FROM generate_series(${have + 1}::int, ${total}::int) AS n`);
    t.app.deps.cache.clear();
    for (const url of ['/', '/blog', '/sitemap.xml']) {
      const body = Buffer.from((await t.app.inject({ url })).body);
      out.push(`${total} posts ${url}: ${body.length} B raw, ${zlib.gzipSync(body, { level: 9 }).length} B gzip, ${zlib.brotliCompressSync(body).length} B br`);
    }
  }
  console.log(`MEASURE\n${out.join('\n')}`);
  await t.close();
}, 300_000);
