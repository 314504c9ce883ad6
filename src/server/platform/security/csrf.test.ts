import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfPlugin } from './csrf';
import { systemRandom } from './crypto';
import { TestAgent } from '../../test/helpers';

describe('CSRF protection', () => {
  const app = Fastify();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(cookie);
    await app.register(csrfPlugin, { secret: 's'.repeat(40), random: systemRandom, secureCookies: false });
    app.post('/api/thing', async () => ({ ok: true }));
    app.get('/api/thing', async () => ({ ok: true }));
    app.post('/api/webhooks/x', { config: { csrf: false } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('lets reads through without a token', async () => {
    expect((await app.inject({ url: '/api/thing' })).statusCode).toBe(200);
  });

  it('refuses a POST with no token, a wrong token, or a token from another visitor', async () => {
    const none = await app.inject({ method: 'POST', url: '/api/thing' });
    expect(none.statusCode).toBe(403);
    expect(none.json().code).toBe('CSRF_ERROR');

    const agent = new TestAgent(app);
    await agent.fetchCsrf();
    const wrong = await agent.post('/api/thing', {}, { headers: { 'x-csrf-token': 'nope' }, csrf: false });
    expect(wrong.statusCode).toBe(403);

    const other = new TestAgent(app);
    const foreign = await other.fetchCsrf();
    const stolen = await agent.post('/api/thing', {}, { headers: { 'x-csrf-token': foreign }, csrf: false });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json().code).toBe('CSRF_ERROR');
  });

  it('accepts the visitor’s own token', async () => {
    const agent = new TestAgent(app);
    const res = await agent.post('/api/thing', {});
    expect(res.statusCode).toBe(200);
  });

  it('skips routes that authenticate another way', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/webhooks/x' })).statusCode).toBe(200);
  });
});
