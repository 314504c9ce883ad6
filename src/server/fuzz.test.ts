/**
 * Every operation of the OpenAPI document, fed hostile input (NUL bytes, lone surrogates, invalid UTF-8,
 * control characters, U+FFFE/U+FFFF, dates in year 0000 or past 9999, huge strings and numbers, wrong
 * types, broken JSON, malformed multipart) in its path, its query and every field of its body, nested ones
 * included, as an anonymous visitor, a reader who owns the book and the admin. Bad input is the client's
 * fault: not one answer may be a 5xx (decisions 0018 and 0058).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_TEXT_MESSAGE } from '@shared/schemas/common';
import { newBuyer } from './features/checkout/test-support';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from './test/helpers';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
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
const BAD_URL_VALUES = [
  '%00', 'a%00b', '%ED%A0%80', '%FF', 'x'.repeat(4000), '-1', '0', '2147483648', '1e400', '1.5', '..%2F..%2Fetc', '%F0%9F%98%80', '%27%3B--',
  // Control characters and the noncharacters U+FFFE and U+FFFF, as UTF-8.
  '%01', 'a%1B%5B31mb', '%EF%BF%BE', '%EF%BF%BF', '%0D%0AX-Injected:%201',
  // Dates a query might carry: year 0000, a year the drivers shift, past 9999.
  '0000-01-01T00%3A00%3A00Z', '0001-01-01', '%2B275760-09-13T00%3A00%3A00Z', '9007199254740993', 'NaN', 'Infinity',
];
const BAD_STRINGS = [
  '\u0000', 'ok\u0000ok', '\ud800', 'a\udc00b', 'x'.repeat(60_000), '😀'.repeat(2000), '   ', "'; drop table users; --", '\u202e',
  // What XML 1.0 cannot hold, printed into a personal copy: control characters, U+FFFE, U+FFFF.
  '\u0001', 'a\u0007b\u001b[31mc', '\ufffe', 'name\uffff', 'line\nbreak\r\n', '\u0085\u2028',
  // Dates: year 0000 (none in PostgreSQL), years the drivers read back shifted, past 9999, no such day.
  '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '0099-12-31T23:59:59.999Z', '9999-12-31T23:59:59-14:00', '+275760-09-13T00:00:00Z',
  '2026-02-30T00:00:00Z', '1970-01-01T00:00:00Z', '2026-11-21T12:00:00.123456789+14:00',
];
const WRONG_TYPES: unknown[] = [
  0, -1, 2 ** 31, 1e308, 1.5, true, null, [], {}, [[[['deep']]]], { nested: '\u0000' },
  Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 64, -1e308, 5e-324, ['\u0000'], ['0000-01-01T00:00:00Z'],
];
const BAD_BODIES = ['{"a":', '[]', 'null', '"\u0000"', '{"__proto__":{"admin":true}}', '\u0000', '{"x":"\\ud800"}', '{"a":1e999999}', '{"a":"\\u0000"}'];

const BOUNDARY = 'fuzzBoundary';
const part = (field: string, fileName: string | null, data: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"${fileName === null ? '' : `; filename="${fileName}"`}\r\nContent-Type: application/octet-stream\r\n\r\n${data}\r\n`;
/** Multipart bodies sent to every operation that takes a body (JSON or upload): cut, empty, several, odd names. */
const BAD_MULTIPART: Array<[string, string]> = [
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('file', 'a.epub', 'PK\u0003\u0004 cut')}`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-da`],
  [`multipart/form-data; boundary=${BOUNDARY}`, 'garbage'],
  [`multipart/form-data; boundary=${BOUNDARY}`, ''],
  ['multipart/form-data', 'no boundary'],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('note', null, 'x')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('file', 'a.png', '')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('file', 'a.epub', 'x')}${part('file', 'b.epub', 'y')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('other', 'a.epub', 'x')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('a', null, '1')}${part('b', null, '2')}${part('c', null, '3')}${part('d', null, '4')}${part('e', null, '5')}${part('f', null, '6')}${part('file', 'x', 'x')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('file', 'a\u0000b\u0001\ufffe.epub', 'x')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('file', `${'a'.repeat(199)}😀.epub`, 'x')}--${BOUNDARY}--\r\n`],
  [`multipart/form-data; boundary=${BOUNDARY}`, `${part('file', 'x'.repeat(70_000), 'x')}--${BOUNDARY}--\r\n`],
];

const unwrap = (schema: JsonSchema): JsonSchema => {
  const alternative = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  return alternative?.length ? unwrap(alternative.find((s) => s.type !== 'null') ?? alternative[0]) : schema;
};
const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** Strings tried, in order, for a field with a pattern: the first that fits is used. */
const CANDIDATE_STRINGS = ['Fuzz', 'FUZZ-1', 'fuzz@example.com', 'https://example.com/fuzz', 'fuzz-slug', '1', 'dQw4w9WgXcQ'];

/**
 * A value the field's own rules accept (its format, pattern, lengths and bounds, as the OpenAPI document
 * states them), so a body gets past every field but the one being fuzzed and reaches the code behind it.
 */
function plausible(raw: JsonSchema | undefined, name: string): unknown {
  if (!raw) return 'x';
  const schema = unwrap(raw);
  if (schema.enum?.length) return schema.enum[0];
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') {
    const exclusive = schema.exclusiveMinimum === true ? 1 : 0;
    const low = Math.max(schema.minimum !== undefined ? schema.minimum + exclusive : 1, 1);
    return schema.maximum !== undefined ? Math.min(low, schema.maximum) : low;
  }
  if (type === 'boolean') return true;
  if (type === 'array') return Array.from({ length: schema.minItems ?? 0 }, () => plausible(schema.items, name));
  if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, plausible(s, k)]));
  // A date in range and in the future (release dates, expiries and deliveries may not be past).
  if (schema.format === 'date-time') return '2031-06-01T12:00:00.000Z';
  if (/password/i.test(name)) return 'Fuzzy-Password-42!';
  const candidates = /email/i.test(name) ? ['fuzz@example.com', ...CANDIDATE_STRINGS] : /url/i.test(name) ? ['https://example.com/fuzz', ...CANDIDATE_STRINGS] : CANDIDATE_STRINGS;
  const fits = (value: string) =>
    (!schema.pattern || new RegExp(schema.pattern, 'u').test(value)) && value.length <= (schema.maxLength ?? Infinity);
  const chosen = candidates.find(fits) ?? 'fuzz';
  return chosen.padEnd(schema.minLength ?? 0, 'z');
}

/** Every field of a body, nested ones included (gift.sendAt, prices.ebook), as paths from the top. */
function fieldPaths(raw: JsonSchema | undefined, prefix: string[] = []): string[][] {
  if (!raw) return [];
  const schema = unwrap(raw);
  const paths: string[][] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    paths.push([...prefix, name]);
    if (typeOf(unwrap(child)) === 'object') paths.push(...fieldPaths(child, [...prefix, name]));
  }
  return paths;
}

/** A copy of `body` with the value at `path` replaced (objects on the way are copied, not shared). */
function withValue(body: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  const object = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...object, [head]: withValue(object[head], rest, value) };
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

  it('answers no hostile request with a 5xx, whoever asks', { timeout: 1_800_000 }, async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    // The reader owns the featured book's e-book and audiobook, so the reading room and positions are
    // reached past their ownership check; the admin reaches every admin route.
    const bookId = Number(valid.bookId);
    const reader = await newBuyer(t, bookId, ['ebook', 'audiobook']);
    const admin = await createUser(t.database, { role: 'admin' });
    // A fresh session per operation: an operation may end or change the one it was given.
    const callers: Array<[string, () => Promise<TestAgent>, Record<string, string>]> = [
      ['anonymous', async () => new TestAgent(t.app), {}],
      ['reader', () => signedInAgent(t.app, reader.user.id), { userId: String(reader.user.id) }],
      ['admin', () => signedInAgent(t.app, admin.id), { userId: String(admin.id) }],
    ];
    let requests = 0;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    /** Operations where a signed-in caller got past the sign-in and role checks at least once. */
    const reachedBehindAuth = new Set<string>();
    const operations: string[] = [];

    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${template}`;
        operations.push(name);
        const params = operation.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
        const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name);
        const schema = bodySchema(operation);
        const base = schema ? plausible(schema, '') : undefined;
        const takesBody = method !== 'get' && method !== 'head';

        for (const [role, agentFor, own] of callers) {
          const known = { ...valid, ...own };
          const fill = (overrides: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, n: string) => overrides[n] ?? known[n] ?? '1');
          type Attempt = { url: string; payload?: string; contentType?: string };
          const json = (body: unknown) => JSON.stringify(body);
          const plainUrl = fill({});
          const attempts: Attempt[] = [{ url: plainUrl, payload: base === undefined ? undefined : json(base) }];
          for (const param of pathParams) for (const value of BAD_URL_VALUES) attempts.push({ url: fill({ [param]: value }), payload: base === undefined ? undefined : json(base) });
          for (const param of queryParams) for (const value of BAD_URL_VALUES) attempts.push({ url: `${plainUrl}?${param}=${value}`, payload: base === undefined ? undefined : json(base) });
          if (takesBody) {
            for (const path of fieldPaths(schema)) {
              for (const value of [...BAD_STRINGS, ...WRONG_TYPES]) attempts.push({ url: plainUrl, payload: json(withValue(base, path, value)) });
            }
            for (const raw of BAD_BODIES) attempts.push({ url: plainUrl, payload: raw });
            for (const [contentType, body] of BAD_MULTIPART) attempts.push({ url: plainUrl, payload: body, contentType });
          }

          const agent = await agentFor();
          for (const { url, payload, contentType } of attempts) {
            requests += 1;
            const res = await agent.request({
              method: method.toUpperCase() as 'GET',
              url,
              // Each request from an address of its own (all loopback): the rate limits would otherwise
              // answer 429 long before the hostile value reached the code behind them.
              remoteAddress: `127.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`,
              ...(payload !== undefined ? { payload, headers: { 'content-type': contentType ?? 'application/json' } } : {}),
            });
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (role !== 'anonymous' && res.statusCode !== 401 && res.statusCode !== 403) reachedBehindAuth.add(name);
            if (res.statusCode >= 500) failures.push(`${role} ${method.toUpperCase()} ${url.slice(0, 120)} ${payload?.slice(0, 120) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
    console.log(`fuzz: ${requests} requests over ${operations.length} operations, ${failures.length} answers >= 500 (${summary})`);
    // Every operation was really exercised by a signed-in caller, not only refused at the door.
    const unreached = operations.filter((o) => !reachedBehindAuth.has(o));
    expect({ failures, unreached }).toEqual({ failures: [], unreached: [] });
    expect(requests).toBeGreaterThan(15_000);
  });
});
