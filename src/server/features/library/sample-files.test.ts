import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAgent, type TestApp } from '../../test/helpers';
import { adminAgent } from '../admin/test-fixtures';

const BOUNDARY = '----sampleFlagBoundary';
function multipart(fileName: string, data: Buffer) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return Buffer.concat([head, data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}
const realPdf = () => Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Title (The whole novel) >>\nendobj\n${'x'.repeat(5000)}`);

describe('Digital Files: the seeded sample is named as such', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    t = await createTestApp({ seed: true });
    agent = (await adminAgent(t)).agent;
  });
  afterAll(async () => t.close());

  it('marks every seeded file as the sample, and a real upload as not', async () => {
    const before = (await agent.get('/api/admin/files')).json() as Array<{ bookId: number; format: string; sample: boolean }>;
    expect(before.map((a) => [a.format, a.sample]).sort()).toEqual([
      ['audiobook', true],
      ['ebook', true],
      ['pdf', true],
    ]);
    const { bookId } = before[0];
    const res = await agent.request({
      method: 'PUT',
      url: `/api/admin/books/${bookId}/files/pdf`,
      payload: multipart('novel.pdf', realPdf()),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().sample).toBe(false);
    const after = (await agent.get('/api/admin/files')).json() as Array<{ format: string; sample: boolean }>;
    expect(Object.fromEntries(after.map((a) => [a.format, a.sample]))).toEqual({ audiobook: true, ebook: true, pdf: false });
  });
});
