import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { downloadTransfers } from '../../db/schema';
import { seedFilesDir } from '../../platform/operations/seed';
import { PROXY_LINK_SECONDS } from '../../platform/http/delivery';
import { S3FileStore } from '../../platform/storage/files';
import { startLocalS3, startSignatureCheck, type LocalS3, type S3SignatureCheck } from '../../test/s3-server';
import { nginxBinary, type RunningNginx, startDeployNginx } from '../../test/nginx';
import { type TestApp, TestAgent, createTestApp } from '../../test/helpers';
import { assetIdOf, featuredBookId, newBuyer, purchaseOf } from '../checkout/test-support';
import { attachmentDisposition } from './download-link';
import { openOwnedFile } from './owned-file';
import { LINK_USED_MESSAGE } from './transfers';

/** The adapters of the delivery port other than the default (decision 0109), through the download route. */

const linkFor = async (t: TestApp, agent: TestAgent, format: string) => {
  const assetId = await assetIdOf(t, await featuredBookId(t.app), format);
  const res = await agent.get(`/api/digital-assets/${assetId}/download`, { auth: 'bearer' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().downloadUrl as string;
};

const transferOf = async (t: TestApp, downloadUrl: string) => {
  const token = downloadUrl.split('/').pop()!;
  const linkId = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).l;
  return (await t.database.db.select().from(downloadTransfers)).find((r) => r.linkId === linkId)!;
};

describe('proxy delivery: nginx sends the files the app authorises', () => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { DELIVERY: 'proxy', DELIVERY_INTERNAL_PATH: '/private-files/' } });
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  it('answers with the file headers and X-Accel-Redirect to the internal path, no body, and the link is spent', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const answer = await t.app.inject({ method: 'GET', url });
    expect(answer.statusCode).toBe(200);
    const copy = await ownedCopy(t, reader.user.id);
    expect(answer.headers['x-accel-redirect']).toBe(`/private-files/${copy.key}`);
    expectHandOff(answer, copy);
    // nginx adds its own; two would be sent.
    expect(answer.headers['accept-ranges']).toBeUndefined();
    expect(answer.headers['content-range']).toBeUndefined();
    expect(fs.existsSync(path.join(t.config.dataDir, 'files', copy.key))).toBe(true);

    const again = await t.app.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ message: LINK_USED_MESSAGE, code: 'LINK_USED' });
    expect(again.headers['x-accel-redirect']).toBeUndefined();
  });

  it('hands a resume to nginx too, but the app never sees the last byte go, so the transfer stays open until the link expires', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const first = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(first.headers['x-accel-redirect']).toBe(`/private-files/${copy.key}`);
    const rest = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-', 'if-range': copy.etag } });
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['x-accel-redirect']).toBe(`/private-files/${copy.key}`);
    expect((await transferOf(t, url)).completedAt).toBeNull();
    // Still one transfer: a whole GET is a second download.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(410);
  });

  it('sends in-process what nginx would judge differently: a conditional request, an If-Range date', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const conditional = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9', 'if-none-match': copy.etag } });
    expect(conditional.statusCode).toBe(206);
    expect(conditional.headers['x-accel-redirect']).toBeUndefined();
    expect(conditional.rawPayload.length).toBe(10);
    const dated = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19', 'if-range': copy.lastModified.toUTCString() } });
    // A date is not the file's ETag: the app treats it as a changed file (a whole download, refused here).
    expect(dated.statusCode).toBe(410);
  });

  it("the reading room's stream is handed to nginx as well, with its own headers", async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const copy = await ownedCopy(t, reader.user.id);
    const res = await reader.agent.get(`/api/library/${bookId}/ebook/content`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-accel-redirect']).toBe(`/private-files/${copy.key}`);
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.rawPayload.length).toBe(0);
  });
});

/** A hand-off to nginx: no body, and the file's own headers for nginx to send with it. */
function expectHandOff(answer: LightMyRequestResponse, copy: Awaited<ReturnType<typeof ownedCopy>>) {
  expect(answer.rawPayload.length).toBe(0);
  expect(answer.headers['content-length']).toBe('0');
  expect(answer.headers).toMatchObject({
    'content-type': 'application/epub+zip',
    etag: copy.etag,
    'last-modified': copy.lastModified.toUTCString(),
    'content-disposition': attachmentDisposition(copy.fileName),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  });
}

/** The copy a reader owns, as the app opens it. */
async function ownedCopy(t: TestApp, userId: number, format = 'ebook') {
  const purchase = await purchaseOf(t, userId, format);
  const opened = await openOwnedFile(t.app.deps, { ...purchase, userId }, format);
  if (!opened.ok) throw new Error(opened.reason);
  return opened.file;
}

/** The time a presigned link was signed at, from its X-Amz-Date. */
const signedAt = (link: URL) =>
  new Date(link.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')).getTime();

/**
 * The app under DELIVERY=proxy on S3: its store signs for a signature check in front of a local S3 server,
 * which verifies signatures and expiry as S3 does and records what reached the store.
 */
async function proxyOnS3(env: Record<string, string> = {}) {
  const s3 = await startLocalS3();
  const check = await startSignatureCheck(s3);
  const t = await createTestApp({
    files: new S3FileStore({ ...s3.options, endpoint: check.endpoint }),
    env: { DELIVERY: 'proxy', S3_BUCKET: s3.options.bucket, ...env },
  });
  const bucketCopy = async (key: string) => Buffer.concat(await (await s3.store().read(key)).toArray());
  const close = async () => {
    await t?.close();
    await check?.close();
    await s3?.close();
  };
  return { s3, check, t, bucketCopy, close };
}

describe('proxy delivery on S3: nginx fetches the file with a short-lived signed GET', () => {
  let setup: Awaited<ReturnType<typeof proxyOnS3>>;
  let t: TestApp;
  let check: S3SignatureCheck;
  let bookId: number;

  beforeAll(async () => {
    setup = await proxyOnS3({ DELIVERY_INTERNAL_S3_PATH: '/private-s3/' });
    ({ t, check } = setup);
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => setup?.close());

  /** The signed GET in a hand-off, as nginx would send it to the store. */
  const signedLink = (handoff: string) => new URL(handoff.replace(/^\/private-s3\//, `${check.endpoint}/`));

  it('answers with the file headers and X-Accel-Redirect to a GET of the object signed for 10 s, no body, and the link is spent', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const before = Date.now();
    const answer = await t.app.inject({ method: 'GET', url });
    expect(answer.statusCode).toBe(200);
    expectHandOff(answer, copy);
    expect(answer.headers['accept-ranges']).toBeUndefined();
    // The whole file: no range for nginx to ask for.
    expect(answer.headers['content-range']).toBeUndefined();

    const handoff = answer.headers['x-accel-redirect'] as string;
    expect(handoff.split('?')[0]).toBe(`/private-s3/${setup.s3.options.bucket}/${copy.key}`);
    const link = signedLink(handoff);
    expect(PROXY_LINK_SECONDS).toBe(10);
    expect(link.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(link.searchParams.get('X-Amz-Expires')).toBe(String(PROXY_LINK_SECONDS));
    expect(link.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(Math.abs(signedAt(link) - before)).toBeLessThan(5_000);
    // Nothing else about the file rides in the link: the app's answer carries its headers.
    expect([...link.searchParams.keys()].filter((name) => !name.startsWith('X-Amz-'))).toEqual(['x-id']);

    // The store takes the signature for its own host, and sends the object.
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(await setup.bucketCopy(copy.key))).toBe(true);
    expect(check.requests.at(-1)!.presigned).toBe('valid');

    expect((await transferOf(t, url)).completedAt).toBeNull();
    const again = await t.app.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ message: LINK_USED_MESSAGE, code: 'LINK_USED' });
    expect(again.headers['x-accel-redirect']).toBeUndefined();
  });

  it('a resume: the range the app decided is its Content-Range and is signed into the link, so the store serves no other', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const first = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${copy.size}`);
    const firstLink = signedLink(first.headers['x-accel-redirect'] as string);
    expect(firstLink.searchParams.get('X-Amz-SignedHeaders')).toBe('host;range');
    const part = await fetch(firstLink, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals((await setup.bucketCopy(copy.key)).subarray(0, 100))).toBe(true);
    expect((await fetch(firstLink, { headers: { range: 'bytes=0-199' } })).status).toBe(403);
    expect((await fetch(firstLink)).status).toBe(403);

    const rest = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-', 'if-range': copy.etag } });
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['content-range']).toBe(`bytes 100-${copy.size - 1}/${copy.size}`);
    expect(rest.headers['x-accel-redirect']).toMatch(/^\/private-s3\//);
    expect((await transferOf(t, url)).completedAt).toBeNull();
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(410);
  });

  it('hands off what the app alone judges as well: If-Range, conditionals; the store is asked for the decided part only', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    // A stale If-Range is a whole download to the app; nginx is told to send it all.
    const stale = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.headers['x-accel-redirect']).toMatch(/^\/private-s3\//);
    expect(stale.headers['content-range']).toBeUndefined();
    expect(signedLink(stale.headers['x-accel-redirect'] as string).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    // The app ignores If-None-Match and sends the part; S3 never sees it, so nothing judges it again.
    const conditional = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19', 'if-none-match': copy.etag } });
    expect(conditional.headers['x-accel-redirect']).toMatch(/^\/private-s3\//);
    expect(conditional.headers['content-range']).toBe(`bytes 10-19/${copy.size}`);
  });

  it("the reading room's stream is handed off with its own headers", async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const copy = await ownedCopy(t, reader.user.id);
    const res = await reader.agent.get(`/api/library/${bookId}/ebook/content`);
    expect(res.statusCode).toBe(200);
    expect((res.headers['x-accel-redirect'] as string).split('?')[0]).toBe(`/private-s3/${setup.s3.options.bucket}/${copy.key}`);
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.rawPayload.length).toBe(0);
  });
});

const nginx = nginxBinary();

/** deploy/nginx.conf itself in front of the app (CI installs nginx; without it, locally, this is skipped). */
describe.skipIf(!nginx && !process.env.CI)('proxy delivery through deploy/nginx.conf', () => {
  let t: TestApp;
  let proxy: RunningNginx;
  let bookId: number;

  beforeAll(async () => {
    expect(nginx, 'nginx is not installed').not.toBeNull();
    t = await createTestApp({ env: { DELIVERY: 'proxy' } });
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    proxy = await startDeployNginx(nginx!, Number(address.port), { files: path.join(t.config.dataDir, 'files'), client: t.app.deps.clientDir });
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await proxy?.close();
    await t.close();
  });

  it('nginx sends the file the app authorised, in two ranges, with the app\'s headers, and the link stays one download', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const purchase = await purchaseOf(t, reader.user.id, 'ebook');
    const opened = await openOwnedFile(t.app.deps, { ...purchase, userId: reader.user.id }, 'ebook');
    if (!opened.ok) throw new Error(opened.reason);
    const copy = fs.readFileSync(path.join(t.config.dataDir, 'files', opened.file.key));

    const first = await fetch(`${proxy.base}${url}`, { headers: { range: 'bytes=0-99' } });
    expect(first.status, await first.clone().text()).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${copy.length}`);
    expect(first.headers.get('etag')).toBe(opened.file.etag);
    expect(first.headers.get('last-modified')).toBe(opened.file.lastModified.toUTCString());
    expect(first.headers.get('content-type')).toBe('application/epub+zip');
    expect(first.headers.get('content-disposition')).toBe(attachmentDisposition(opened.file.fileName));
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(first.headers.get('x-request-id')).toBeTruthy();
    expect(first.headers.get('x-accel-redirect')).toBeNull();
    const rest = await fetch(`${proxy.base}${url}`, { headers: { range: 'bytes=100-', 'if-range': opened.file.etag } });
    expect(rest.status).toBe(206);
    const bytes = Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
    expect(bytes.equals(copy)).toBe(true);

    // A stale If-Range is a whole download to both the app and nginx: the second one is refused.
    expect((await fetch(`${proxy.base}${url}`, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } })).status).toBe(410);
    // The internal location is not reachable from outside.
    expect((await fetch(`${proxy.base}/internal-files/${opened.file.key}`)).status).toBe(404);
  });

  it("nginx sends a hashed script itself, with the front door's headers for it", async () => {
    const file = '/assets/app-abc123.js';
    const [fromNginx, fromApp] = await Promise.all([fetch(`${proxy.base}${file}`), fetch(`${t.app.listeningOrigin}${file}`)]);
    expect(fromNginx.status).toBe(200);
    // nginx's own ETag (size and time in hex), not the app's hash: the file did not come through the app.
    expect(fromNginx.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(await fromNginx.text()).toBe(await fromApp.text());
    const perAnswer = new Set(['date', 'connection', 'keep-alive', 'etag', 'last-modified', 'content-length', 'accept-ranges', 'server', 'x-request-id']);
    const shared = (res: Response) => [...res.headers].filter(([name]) => !perAnswer.has(name));
    expect(shared(fromNginx)).toEqual(shared(fromApp));
    expect(fromNginx.headers.get('x-request-id')).toBeTruthy();
  });

  it('a hashed name nginx does not hold, and a worker\'s script, are answered by the app', async () => {
    // The app names its answers with UUIDs; nginx's own request ids are 32 hex digits without dashes.
    const fromApp = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const missing = '/assets/app-gone999.js';
    const [throughNginx, direct] = await Promise.all([fetch(`${proxy.base}${missing}`), fetch(`${t.app.listeningOrigin}${missing}`)]);
    expect(throughNginx.status).toBe(404);
    expect(throughNginx.headers.get('x-request-id')).toMatch(fromApp);
    expect(await throughNginx.text()).toBe(await direct.text());

    const script = await fetch(`${proxy.base}/assets/reader.worker-abc123.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('x-request-id')).toMatch(fromApp);
    expect(script.headers.get('content-security-policy')).toBeTruthy();
    expect(await script.text()).toBe('self.onmessage = () => {};');
  });
});

/** deploy/nginx.conf's S3 location in front of the app and the signature-checking local S3 server. */
describe.skipIf(!nginx && !process.env.CI)('proxy delivery on S3 through deploy/nginx.conf', () => {
  let setup: Awaited<ReturnType<typeof proxyOnS3>>;
  let t: TestApp;
  let check: S3SignatureCheck;
  let proxy: RunningNginx;
  let bookId: number;
  // Headers that differ from one answer to the next, or name the server that sent it.
  const perAnswer = new Set(['date', 'connection', 'keep-alive', 'server', 'x-request-id']);
  const shared = (res: Response) => [...res.headers].filter(([name]) => !perAnswer.has(name));

  beforeAll(async () => {
    expect(nginx, 'nginx is not installed').not.toBeNull();
    setup = await proxyOnS3();
    ({ t, check } = setup);
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    proxy = await startDeployNginx(nginx!, Number(address.port), {
      files: path.join(t.config.dataDir, 'files'),
      client: t.app.deps.clientDir,
      s3: check.endpoint,
    });
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await proxy?.close();
    await setup?.close();
  });

  it("nginx sends the whole file from the bucket with the app's headers, and nothing of the client's request reaches the store", async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const bucketCopy = await setup.bucketCopy(copy.key);
    // The app's own answer to the same link (a HEAD claims nothing).
    const fromApp = await fetch(`${t.app.listeningOrigin}${url}`, { method: 'HEAD' });
    expect(fromApp.status).toBe(200);
    const asked = check.requests.length;

    const whole = await fetch(`${proxy.base}${url}`, {
      headers: { cookie: 'sid=reader', authorization: 'Bearer reader', 'if-none-match': copy.etag, 'if-modified-since': new Date().toUTCString() },
    });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bucketCopy)).toBe(true);
    expect(shared(whole)).toEqual(shared(fromApp));
    expect(whole.headers.get('etag')).toBe(copy.etag);
    expect(whole.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect([...whole.headers.keys()].filter((name) => name.startsWith('x-amz-') || name === 'x-accel-redirect')).toEqual([]);

    // One signed GET reached the store, with its Host, and none of the client's headers.
    // The app's own calls to the store (a HEAD for the file's size) are not presigned.
    const reached = check.requests.slice(asked).filter((r) => r.presigned);
    expect(reached.map((r) => r.presigned)).toEqual(['valid']);
    expect(reached[0].headers.host).toBe(new URL(check.endpoint).host);
    expect(Object.keys(reached[0].headers).sort()).toEqual(['connection', 'host']);

    expect((await transferOf(t, url)).completedAt).toBeNull();
    expect((await fetch(`${proxy.base}${url}`)).status).toBe(410);
  });

  it('a resume in two ranges, and a stale If-Range gets the whole file although the client asked for a part', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const bucketCopy = await setup.bucketCopy(copy.key);
    const asked = check.requests.length;

    const first = await fetch(`${proxy.base}${url}`, { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${copy.size}`);
    expect(first.headers.get('etag')).toBe(copy.etag);
    expect(first.headers.get('last-modified')).toBe(copy.lastModified.toUTCString());
    const rest = await fetch(`${proxy.base}${url}`, { headers: { range: 'bytes=100-', 'if-range': copy.etag } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 100-${copy.size - 1}/${copy.size}`);
    const bytes = Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
    expect(bytes.equals(bucketCopy)).toBe(true);
    const reached = check.requests.slice(asked).filter((r) => r.presigned);
    expect(reached.map((r) => [r.presigned, r.headers.range, r.headers['if-range']])).toEqual([
      ['valid', 'bytes=0-99', undefined],
      ['valid', `bytes=100-${copy.size - 1}`, undefined],
    ]);

    const other = await newBuyer(t, bookId, ['ebook']);
    const otherUrl = await linkFor(t, other.agent, 'ebook');
    const otherCopy = await ownedCopy(t, other.user.id);
    const stale = await fetch(`${proxy.base}${otherUrl}`, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-range')).toBeNull();
    expect(Buffer.from(await stale.arrayBuffer()).equals(await setup.bucketCopy(otherCopy.key))).toBe(true);
  });

  it("the S3 location is internal, and a link the store refuses is nginx's 502, not the store's error", async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const url = await linkFor(t, reader.agent, 'ebook');
    const copy = await ownedCopy(t, reader.user.id);
    const handoff = (await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } })).headers['x-accel-redirect'] as string;
    expect(handoff).toMatch(/^\/internal-s3\//);
    // Not even a fresh signed link is reachable from outside.
    expect((await fetch(`${proxy.base}${handoff}`, { headers: { range: 'bytes=0-9' } })).status).toBe(404);
    expect((await fetch(`${proxy.base}/internal-s3/${setup.s3.options.bucket}/${copy.key}`)).status).toBe(404);

    check.refusing = true;
    try {
      const refused = await fetch(`${proxy.base}${url}`, { headers: { range: 'bytes=10-19' } });
      expect(refused.status).toBe(502);
      const body = await refused.text();
      expect(body).not.toContain('AccessDenied');
      expect(body).not.toContain(setup.s3.options.bucket);
      expect(check.requests.at(-1)!.presigned).toBe('expired');
    } finally {
      check.refusing = false;
    }
  });
});

describe('edge delivery: downloads come from S3 through short-lived signed links', () => {
  let s3: LocalS3;
  let t: TestApp;
  let bookId: number;
  const audio = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-audio-sample.mp3'));

  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createTestApp({ files: s3.store(), env: { DELIVERY: 'edge', S3_BUCKET: s3.options.bucket } });
    bookId = await featuredBookId(t.app);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('answers 302 to a signed GET of the stored object that expires in 60 s and names the file', async () => {
    const reader = await newBuyer(t, bookId, ['audiobook']);
    const url = await linkFor(t, reader.agent, 'audiobook');
    const before = Date.now();
    const answer = await t.app.inject({ method: 'GET', url });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(answer.rawPayload.length).toBe(0);
    const purchase = await purchaseOf(t, reader.user.id, 'audiobook');
    const opened = await openOwnedFile(t.app.deps, { ...purchase, userId: reader.user.id }, 'audiobook');
    if (!opened.ok) throw new Error(opened.reason);
    const link = new URL(answer.headers.location as string);
    expect(`${link.origin}${link.pathname}`).toBe(`${s3.endpoint}/${s3.options.bucket}/${opened.file.key}`);
    expect(link.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(link.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(link.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const signedAt = link.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
    expect(Math.abs(new Date(signedAt).getTime() - before)).toBeLessThan(5_000);
    expect(link.searchParams.get('response-content-disposition')).toBe(attachmentDisposition(opened.file.fileName));
    expect(link.searchParams.get('response-content-type')).toBe(opened.file.contentType);

    // The S3 server sends the bytes, with the app's name and type for them.
    const file = await fetch(link);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(attachmentDisposition(opened.file.fileName));
    expect(Buffer.from(await file.arrayBuffer()).equals(audio)).toBe(true);
    // The weakening decision 0109 states: the signed link itself can be fetched again while it lives.
    expect((await fetch(link, { headers: { range: 'bytes=0-9' } })).status).toBe(206);

    // The download link is still one transfer: a second whole GET is refused, a resume gets a new signed link.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(410);
    const resume = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-', 'if-range': file.headers.get('etag')! } });
    expect(resume.statusCode).toBe(302);
    const resumed = await fetch(resume.headers.location as string, { headers: { range: 'bytes=100-199' } });
    expect(resumed.status).toBe(206);
    expect(Buffer.from(await resumed.arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);
  });

  it('a HEAD is answered by the app with the headers, and claims nothing', async () => {
    const reader = await newBuyer(t, bookId, ['audiobook']);
    const url = await linkFor(t, reader.agent, 'audiobook');
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(audio.length));
    expect(head.headers.location).toBeUndefined();
    expect((await transferOf(t, url)).startedAt).toBeNull();
  });
});
