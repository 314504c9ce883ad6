import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_UPLOAD_LIMIT } from '@shared/schemas/admin';
import { createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';
import { detectImage } from './images-routes';
import { unseededAppWithAdmin } from './test-fixtures';

const BOUNDARY = '----imageUploadBoundary';
function multipart(fileName: string, data: Buffer, contentType = 'image/png') {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return Buffer.concat([head, data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}
const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('0000000dIHDR'), Buffer.alloc(200, 7)]);
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
const webp = () => Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x40, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(64, 2)]);
const avif = () => {
  const box = Buffer.alloc(28);
  box.writeUInt32BE(28, 0);
  box.write('ftyp', 4, 'latin1');
  box.write('mif1', 8, 'latin1');
  box.writeUInt32BE(0, 12);
  box.write('mif1', 16, 'latin1');
  box.write('avif', 20, 'latin1');
  box.write('miaf', 24, 'latin1');
  return Buffer.concat([box, Buffer.alloc(64, 3)]);
};

describe('image type detection', () => {
  it('knows PNG, JPEG, WebP and AVIF by their bytes, and nothing else', () => {
    expect(detectImage(png())).toBe('png');
    expect(detectImage(jpeg())).toBe('jpg');
    expect(detectImage(webp())).toBe('webp');
    expect(detectImage(avif())).toBe('avif');
    expect(detectImage(Buffer.from('GIF89a......'))).toBeNull();
    expect(detectImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'))).toBeNull();
    expect(detectImage(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(32)]))).toBeNull();
  });
});

describe('POST /api/admin/images and GET /media/images/{name}', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
  });
  afterAll(async () => t.close());

  const upload = (a: TestAgent, payload: Buffer) => a.request({ method: 'POST', url: '/api/admin/images', payload, headers });

  it('stores each accepted type and serves it publicly with a year of caching', async () => {
    for (const [data, type] of [
      [png(), 'image/png'],
      [jpeg(), 'image/jpeg'],
      [webp(), 'image/webp'],
      [avif(), 'image/avif'],
    ] as const) {
      const res = await upload(agent, multipart('cover.bin', data, 'application/octet-stream'));
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ contentType: type, bytes: data.length });
      expect(body.url).toMatch(/^\/media\/images\/[a-f0-9]{32}\.(png|jpg|webp|avif)$/);
      const served = await t.app.inject({ method: 'GET', url: body.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(data)).toBe(true);
    }
  });

  it('refuses what is not one of the four image types, whatever the name or claimed type says', async () => {
    const res = await upload(agent, multipart('cover.png', Buffer.from('<svg><script>alert(1)</script></svg>'), 'image/png'));
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('The image must be a PNG, JPEG, WebP or AVIF file.');
    const gif = await upload(agent, multipart('cover.gif', Buffer.from('GIF89a-------------'), 'image/gif'));
    expect(gif.statusCode).toBe(415);
  });

  it('refuses an image over the limit with 413, an empty file and a malformed body with 400', async () => {
    const big = await upload(agent, multipart('big.png', Buffer.concat([png(), Buffer.alloc(IMAGE_UPLOAD_LIMIT, 1)])));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The image is too large. The limit is 5 MB.');
    expect((await upload(agent, multipart('empty.png', Buffer.alloc(0)))).statusCode).toBe(400);
    const malformed = await upload(agent, Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\u0089PNG`));
    expect(malformed.statusCode).toBe(400);
    const notMultipart = await agent.request({ method: 'POST', url: '/api/admin/images', payload: { url: 'x' } });
    expect(notMultipart.statusCode).toBe(415);
  });

  it('is for admins only; the public path serves only names it made', async () => {
    const reader = await createUser(t.database);
    expect((await upload(await signedInAgent(t.app, reader.id), multipart('a.png', png()))).statusCode).toBe(403);
    expect((await upload(new TestAgent(t.app), multipart('a.png', png()))).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/media/images/${'a'.repeat(32)}.png` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/media/images/..%2F..%2Fsecret.png' })).statusCode).toBe(400);
  });
});
