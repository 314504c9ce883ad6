import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAdminPagePath } from '@shared/app-paths';
import { createTestApp, type TestApp } from '../../test/helpers';
import { featuredBook } from '../../db/seed/content';

describe('paths that name no page answer the not-found page with 404', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('an unknown admin path is 404; every admin page is 200', async () => {
    for (const url of ['/admin/nope', '/admin/orders/extra', '/admin/books', '/admin/posts/1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toContain('<div id="root">');
    }
    for (const url of ['/admin', '/admin/', '/admin/orders', '/admin/books/create', '/admin/books/edit/1', '/admin/posts/new', '/admin/posts/7/edit', '/admin/trace', '/admin/reviews', '/admin/tax', '/admin/shipping', '/admin/bundles']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }
  });

  it('the reading room of a book that does not exist is 404; of a real book 200', async () => {
    const book = (await t.app.inject({ url: '/api/books/featured' })).json<{ id: number; title: string }>();
    expect(book.title).toBe(featuredBook.title);
    for (const url of ['/read/999999/ebook', '/read/999999/pdf', '/listen/999999', '/read/1/mobi']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
    for (const url of [`/read/${book.id}/ebook`, `/read/${book.id}/pdf`, `/listen/${book.id}`]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }
  });

  it("every admin route of the client's router is a known admin page (the server and client agree)", () => {
    // The admin pages' routes live in their own lazy route table.
    const router = fs.readFileSync(path.join(import.meta.dirname, '../../../client/app/admin-routes.tsx'), 'utf8');
    const paths = [...router.matchAll(/<Route path="(\/admin[^"]*)"/g)].map((m) => m[1].replace(/:[a-z]+/gi, '42'));
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) expect(isAdminPagePath(p), p).toBe(true);
  });
});
