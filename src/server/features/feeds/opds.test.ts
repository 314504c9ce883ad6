import { parseAtomFeed } from 'feedsmith';
import OPDSParserModule, { AcquisitionFeed, OPDSAcquisitionLink, OPDSArtworkLink } from 'opds-feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TestAgent, createTestApp } from '../../test/helpers';
import { featuredBookId, newBuyer, purchaseOf } from '../checkout/test-support';
import { marksIn } from '../copies/trace';

// The package is CommonJS with an ES default export: under ESM the class may sit one level down.
const OPDSParser = ((OPDSParserModule as unknown as { default?: typeof OPDSParserModule }).default ?? OPDSParserModule) as typeof OPDSParserModule;

/** Parses with the OPDS client library and insists on an acquisition feed (what reading apps list books from). */
async function parseOpds(xml: string): Promise<AcquisitionFeed> {
  const parsed = await new OPDSParser().parse(xml);
  expect(parsed).toBeInstanceOf(AcquisitionFeed);
  return parsed as AcquisitionFeed;
}

describe('the library in a reading app (OPDS 1.2)', () => {
  let t: TestApp;
  let bookId: number;

  beforeAll(async () => {
    t = await createTestApp();
    bookId = await featuredBookId(t.app);
  });
  afterAll(() => t.close());

  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  const pathOf = (url: string) => new URL(url).pathname;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('is off until the reader turns it on; then its token address parses as an OPDS acquisition feed of their books', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const off = await reader.agent.get('/api/library/opds');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false, catalogueUrl: null, basicUrl: 'http://localhost:3000/files/opds/catalog', username: reader.user.username });

    const on = await reader.agent.post('/api/library/opds');
    expect(on.statusCode).toBe(200);
    const state = on.json();
    expect(state.message).toBe('Your reading-app catalogue is on. The password is shown only now.');
    expect(state.enabled).toBe(true);
    expect(state.catalogueUrl).toMatch(/^http:\/\/localhost:3000\/files\/opds\/t\/\d+-[\w-]+$/);
    expect(state.password).toMatch(/^[\w-]{24}$/);
    // The password is never answered again.
    const later = (await reader.agent.get('/api/library/opds')).json();
    expect(later).toEqual({ enabled: true, catalogueUrl: state.catalogueUrl, basicUrl: state.basicUrl, username: reader.user.username });

    const res = await get(pathOf(state.catalogueUrl));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml;profile=opds-catalog;kind=acquisition;charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');

    // An OPDS client library reads it as an acquisition feed with cover, thumbnail and an EPUB acquisition link.
    const feed = await parseOpds(res.body);
    expect(feed.entries).toHaveLength(1);
    const [entry] = feed.entries;
    expect(entry.title).toBe('What We Owe the Dead');
    expect(entry.authors.map((a) => a.name)).toEqual(['Callum Reyes']);
    const acquisitions = entry.links.filter((l): l is OPDSAcquisitionLink => l instanceof OPDSAcquisitionLink);
    // The e-book comes with its PDF edition (decision 0066): one acquisition link per format.
    expect(acquisitions.map((l) => [l.rel, l.type]).sort()).toEqual([
      ['http://opds-spec.org/acquisition', 'application/epub+zip'],
      ['http://opds-spec.org/acquisition', 'application/pdf'],
    ]);
    const artwork = entry.links.filter((l): l is OPDSArtworkLink => l instanceof OPDSArtworkLink).map((l) => l.rel);
    expect(artwork).toEqual(['http://opds-spec.org/image', 'http://opds-spec.org/image/thumbnail']);
    // ...and an Atom parser reads the same feed.
    const atom = parseAtomFeed(res.body);
    expect(atom.title).toEqual({ value: `${reader.user.username}'s library` });
    expect(atom.entries?.[0]?.links?.find((l) => l.rel === 'http://opds-spec.org/image')?.href).toMatch(/^http:\/\/localhost:3000\/images\/covers\//);

    // The acquisition link downloads the reader's own personal copy, and spends nothing.
    const epubLink = acquisitions.find((l) => l.type === 'application/epub+zip')!;
    const file = await get(pathOf(epubLink.href));
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/epub+zip');
    expect(file.headers['content-disposition']).toContain('attachment; filename="What We Owe the Dead.epub"');
    expect(await marksIn(file.rawPayload)).toHaveLength(1);
    const reading = await reader.agent.get(`/api/library/${bookId}/ebook/content`);
    expect(file.rawPayload.equals(reading.rawPayload)).toBe(true);
    expect(await purchaseOf(t, reader.user.id, 'ebook')).toMatchObject({ downloadCount: 0, downloadUsed: false, lastDownloaded: null });
    const part = await get(pathOf(epubLink.href), { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
  });

  it('answers HTTP Basic with the user name (or email) and the app password, and challenges everything else', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const { password, basicUrl } = (await reader.agent.post('/api/library/opds')).json();
    const root = pathOf(basicUrl);

    for (const authorization of [undefined, basic(reader.user.username, 'wrong-password'), basic('nobody', password), 'Bearer x']) {
      const refused = await get(root, authorization ? { authorization } : {});
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Basic realm="Your library", charset="UTF-8"');
      expect(refused.json().message).toBe('Sign in with your user name and your reading-app password.');
    }
    const byName = await get(root, { authorization: basic(reader.user.username.toUpperCase(), password) });
    expect(byName.statusCode).toBe(200);
    const feed = await parseOpds(byName.body);
    const href = feed.entries[0].links.find((l) => l instanceof OPDSAcquisitionLink && l.type === 'application/epub+zip')!.href;
    expect(pathOf(href)).toMatch(/^\/files\/opds\/catalog\/books\/\d+$/);
    expect((await get(pathOf(href))).statusCode).toBe(401);
    const file = await get(pathOf(href), { authorization: basic(reader.user.email, password) });
    expect(file.statusCode).toBe(200);
    expect(await marksIn(file.rawPayload)).toHaveLength(1);
  });

  it("keeps each reader to their own books: another reader's password or purchase gets nothing", async () => {
    const owner = await newBuyer(t, bookId, ['ebook']);
    const other = await newBuyer(t, bookId, []);
    const mine = (await owner.agent.post('/api/library/opds')).json();
    const theirs = (await other.agent.post('/api/library/opds')).json();
    const ownerFeed = await parseOpds((await get(pathOf(mine.catalogueUrl))).body);
    const ownerCopy = pathOf(ownerFeed.entries[0].links.find((l) => l instanceof OPDSAcquisitionLink)!.href).split('/books/')[1];

    // The other reader's catalogue lists nothing and cannot fetch the owner's purchase, by token or Basic.
    const otherFeed = await parseOpds((await get(pathOf(theirs.catalogueUrl))).body);
    expect(otherFeed.entries).toHaveLength(0);
    expect((await get(`${pathOf(theirs.catalogueUrl)}/books/${ownerCopy}`)).statusCode).toBe(404);
    expect((await get(`/files/opds/catalog/books/${ownerCopy}`, { authorization: basic(other.user.username, theirs.password) })).statusCode).toBe(404);
    expect((await get('/files/opds/catalog', { authorization: basic(owner.user.username, theirs.password) })).statusCode).toBe(401);

    // The settings are the signed-in reader's own; anonymous callers get 401.
    expect((await t.app.inject({ method: 'GET', url: '/api/library/opds' })).statusCode).toBe(401);
    expect((await new TestAgent(t.app).post('/api/library/opds')).statusCode).toBe(401);
  });

  it('stops the old address and password when regenerated, and everything when turned off', async () => {
    const reader = await newBuyer(t, bookId, ['ebook']);
    const first = (await reader.agent.post('/api/library/opds')).json();
    const second = await reader.agent.post('/api/library/opds/regenerate');
    expect(second.json().message).toBe('A new catalogue address and password are ready. The old ones no longer work.');
    const renewed = second.json();
    expect(renewed.catalogueUrl).not.toBe(first.catalogueUrl);
    expect(renewed.password).not.toBe(first.password);
    expect((await get(pathOf(first.catalogueUrl))).statusCode).toBe(404);
    expect((await get('/files/opds/catalog', { authorization: basic(reader.user.username, first.password) })).statusCode).toBe(401);
    expect((await get(pathOf(renewed.catalogueUrl))).statusCode).toBe(200);
    expect((await get('/files/opds/catalog', { authorization: basic(reader.user.username, renewed.password) })).statusCode).toBe(200);

    const off = await reader.agent.request({ method: 'DELETE', url: '/api/library/opds' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, catalogueUrl: null, message: 'Your reading-app catalogue is off.' });
    expect((await get(pathOf(renewed.catalogueUrl))).statusCode).toBe(404);
    expect((await get('/files/opds/catalog', { authorization: basic(reader.user.username, renewed.password) })).statusCode).toBe(401);
  });
});
