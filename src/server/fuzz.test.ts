/**
 * Every operation of the OpenAPI document, fed hostile input (NUL bytes, lone surrogates, invalid UTF-8,
 * huge strings, wrong types, broken JSON) in its path, its query and its JSON body, as an anonymous
 * visitor, a reader and the admin. Bad input is the client's fault: not one answer may be a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_TEXT_MESSAGE } from '@shared/schemas/common';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from './test/helpers';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Already URL-encoded: path and query values, raw bytes included (a surrogate as UTF-8, a lone 0xFF). */
const BAD_URL_VALUES = ['%00', 'a%00b', '%ED%A0%80', '%FF', 'x'.repeat(4000), '-1', '0', '2147483648', '1e400', '1.5', '..%2F..%2Fetc', '%F0%9F%98%80', '%27%3B--'];
const BAD_STRINGS = ['\u0000', 'ok\u0000ok', '\ud800', 'a\udc00b', 'x'.repeat(60_000), '😀'.repeat(2000), '   ', "'; drop table users; --", '\u202e'];
const WRONG_TYPES: unknown[] = [0, -1, 2 ** 31, 1e308, 1.5, true, null, [], {}, [[[['deep']]]], { nested: '\u0000' }];
const BAD_BODIES = ['{"a":', '[]', 'null', '"\u0000"', '{"__proto__":{"admin":true}}', '\u0000', '{"x":"\\ud800"}'];

/** A plausible value for a schema, so the other fields of a body get past their own checks. */
function plausible(schema: JsonSchema | undefined, name: string): unknown {
  if (!schema) return 'x';
  const alternative = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternative?.length) return plausible(alternative.find((s) => s.type !== 'null') ?? alternative[0], name);
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, plausible(s, k)]));
  if (/email/i.test(name)) return 'fuzz@example.com';
  if (/password/i.test(name)) return 'Fuzzy-Password-42!';
  return 'fuzz';
}

function bodySchema(operation: Operation): JsonSchema | undefined {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  return schema.properties ? schema : (schema.allOf ?? schema.anyOf)?.find((s) => s.properties) ?? schema;
}

describe('fuzzing every operation', () => {
  let t: TestApp;
  let valid: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    const featured = (await t.app.inject({ url: '/api/books/featured' })).json() as { id: number };
    const [post] = (await t.app.inject({ url: '/api/blog' })).json() as Array<{ slug: string }>;
    valid = { id: String(featured.id), bookId: String(featured.id), slug: post.slug, format: 'ebook', sessionId: 'cs_missing', token: 'missing', assetId: '1', name: 'missing.png' };
  });
  afterAll(async () => t.close());

  it('refuses NUL bytes and lone surrogates in any field with a 400 that says why', async () => {
    const agent = new TestAgent(t.app);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/api/users/login', { username: 'ok\u0000ok', password: 'Fuzzy-Password-42!' }, 'username'],
      ['/api/users/login', { username: 'reader', password: 'pass\ud800word' }, 'password'],
      ['/api/contact', { name: 'Ann', email: 'ann@example.com', subject: 'Media Inquiry', message: 'Hello \udc00 there' }, 'message'],
      ['/api/subscribe', { email: 'a\u0000@example.com' }, 'email'],
    ];
    for (const [url, body, field] of cases) {
      const res = await agent.post(url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().fields?.[field], url).toBe(INVALID_TEXT_MESSAGE);
    }
    // Characters outside the BMP (a proper surrogate pair) are ordinary text.
    const emoji = await agent.post('/api/contact', { name: 'Ann 😀', email: 'ann@example.com', subject: 'Media Inquiry', message: 'Hello 😀 there, a proper message.' });
    expect(emoji.statusCode).toBeLessThan(300);
  });

  it('answers no hostile request with a 5xx, whoever asks', { timeout: 600_000 }, async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const reader = await createUser(t.database);
    const admin = await createUser(t.database, { role: 'admin' });
    // A fresh session per operation: an operation may end or change the one it was given.
    const callers: Array<[string, () => Promise<TestAgent>]> = [
      ['anonymous', async () => new TestAgent(t.app)],
      ['reader', () => signedInAgent(t.app, reader.id)],
      ['admin', () => signedInAgent(t.app, admin.id)],
    ];
    let requests = 0;
    const failures: string[] = [];

    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const params = operation.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
        const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name);
        const schema = bodySchema(operation);
        const fields = Object.entries(schema?.properties ?? {});
        const base = schema ? (plausible(schema, '') as Record<string, unknown>) : undefined;
        const fill = (overrides: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, n: string) => overrides[n] ?? valid[n] ?? '1');

        type Attempt = { url: string; payload?: string };
        const json = (body: unknown) => JSON.stringify(body);
        const attempts: Attempt[] = [];
        const plainUrl = fill({});
        for (const name of pathParams) for (const value of BAD_URL_VALUES) attempts.push({ url: fill({ [name]: value }), payload: base && json(base) });
        for (const name of queryParams) for (const value of BAD_URL_VALUES) attempts.push({ url: `${plainUrl}?${name}=${value}`, payload: base && json(base) });
        if (method !== 'get' && method !== 'head') {
          for (const [name] of fields) {
            for (const value of [...BAD_STRINGS, ...WRONG_TYPES]) attempts.push({ url: plainUrl, payload: json({ ...base, [name]: value }) });
          }
          for (const raw of BAD_BODIES) attempts.push({ url: plainUrl, payload: raw });
        }
        if (!attempts.length) attempts.push({ url: plainUrl });

        for (const [role, agentFor] of callers) {
          const agent = await agentFor();
          for (const { url, payload } of attempts) {
            const res = await agent.request({
              method: method.toUpperCase() as 'GET',
              url,
              ...(payload !== undefined ? { payload, headers: { 'content-type': 'application/json' } } : {}),
            });
            requests += 1;
            if (res.statusCode >= 500) failures.push(`${role} ${method.toUpperCase()} ${url.slice(0, 120)} ${payload?.slice(0, 120) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    console.log(`fuzz: ${requests} requests over ${Object.keys(doc.paths).length} paths, ${failures.length} answers >= 500`);
    expect(requests).toBeGreaterThan(2000);
    expect(failures).toEqual([]);
  });
});
