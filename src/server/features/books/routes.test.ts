import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { featuredBook } from '../../db/seed/content';

describe('books API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers the featured book as {id, title}', async () => {
    const res = await t.app.inject({ url: '/api/books/featured' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: expect.any(Number), title: featuredBook.title });
  });

  it('lists books with the featured one first', async () => {
    const res = await t.app.inject({ url: '/api/books' });
    const list = res.json();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ title: featuredBook.title, featured: true, yearPublished: 2026 });
    expect(list[1].featured).toBe(false);
  });

  it('answers one book by id and 404 for an unknown id', async () => {
    const { id } = (await t.app.inject({ url: '/api/books/featured' })).json();
    const res = await t.app.inject({ url: `/api/books/${id}` });
    expect(res.json()).toMatchObject({ id, title: featuredBook.title, publisher: 'Harrow & Vane' });
    const missing = await t.app.inject({ url: '/api/books/99999' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Book not found', code: 'NOT_FOUND' });
  });

  it('rejects a malformed or out-of-range id with the error shape, never a database error', async () => {
    for (const id of ['abc', '3000000000', '-1', '0']) {
      const res = await t.app.inject({ url: `/api/books/${id}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
  });

  it('lists the server prices per format', async () => {
    const { id } = (await t.app.inject({ url: '/api/books/featured' })).json();
    const prices = (await t.app.inject({ url: `/api/books/${id}/prices` })).json();
    expect(Object.fromEntries(prices.map((p: { format: string; price: number }) => [p.format, p.price]))).toEqual({
      hardcover: 2499,
      paperback: 1699,
      ebook: 999,
      audiobook: 1499,
    });
  });
});
