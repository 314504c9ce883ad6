import fs from 'node:fs';
import path from 'node:path';
import { seedFilesDir } from '../../platform/operations/seed';
import { startLocalS3, type LocalS3 } from '../../test/s3-server';
import { type TestApp, createTestApp, createUser, signedInAgent } from '../../test/helpers';
import { buy, featuredBookId } from '../checkout/test-support';

/**
 * The site on S3: the seed puts the sample files there and downloads come back from the S3 server. The
 * audiobook is served as its master file (e-books and PDFs are the buyer's personal copy), so its bytes can
 * be compared with the seeded file.
 */
describe('downloads from an S3 file store', () => {
  let s3: LocalS3;
  let t: TestApp;
  const audio = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-audio-sample.mp3'));

  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createTestApp({ files: s3.store() });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  async function downloadUrlForNewBuyer() {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const bookId = await featuredBookId(t.app);
    await buy(agent, bookId, 'audiobook');
    const asset = await agent.get(`/api/books/${bookId}/assets?format=audiobook`, { auth: 'bearer' });
    expect(asset.statusCode, asset.body).toBe(200);
    const link = await agent.get(`/api/digital-assets/${asset.json().asset.id}/download`, { auth: 'bearer' });
    expect(link.statusCode, link.body).toBe(200);
    return link.json().downloadUrl as string;
  }

  it('the seeded files are objects in the bucket', async () => {
    expect((await s3.store().list('books/')).some((k) => k.endsWith('.epub'))).toBe(true);
  });

  it('sends the whole file', async () => {
    const file = await t.app.inject({ method: 'GET', url: await downloadUrlForNewBuyer() });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-length']).toBe(String(audio.length));
    expect(file.rawPayload.equals(audio)).toBe(true);
  });

  it('honours Range: the bytes asked for, from S3', async () => {
    const file = await t.app.inject({ method: 'GET', url: await downloadUrlForNewBuyer(), headers: { range: 'bytes=100-199' } });
    expect(file.statusCode).toBe(206);
    expect(file.headers['content-range']).toBe(`bytes 100-199/${audio.length}`);
    expect(file.rawPayload.equals(audio.subarray(100, 200))).toBe(true);
  });
});
