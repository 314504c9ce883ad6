/** Helpers for store tests: buy a format through the real checkout and local payment page. */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestAgent } from '../../test/helpers';

export async function featuredBookId(app: FastifyInstance): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/books/featured' });
  expect(res.statusCode).toBe(200);
  return res.json().id as number;
}

/** POST /api/checkout and return the checkout session id from the local payment URL. */
export async function startCheckout(agent: TestAgent, bookId: number, format: string): Promise<string> {
  const res = await agent.post('/api/checkout', { bookId, format });
  expect(res.statusCode, res.body).toBe(200);
  const url = res.json().url as string;
  const match = /^\/pay\/([\w-]+)$/.exec(url);
  expect(match, url).not.toBeNull();
  return match![1];
}

/** Checkout and pay on the local payment page; returns the pay answer. */
export async function buy(agent: TestAgent, bookId: number, format: string) {
  const sessionId = await startCheckout(agent, bookId, format);
  const res = await agent.post(`/api/checkout/sessions/${sessionId}/pay`);
  expect(res.statusCode, res.body).toBe(200);
  return { sessionId, ...(res.json() as { status: string; redirectTo: string; orderReference: string | null }) };
}
