import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { peekHead } from './upload-stream';

describe('peekHead', () => {
  it('refuses a stream the parser failed before anyone listened (no waiting for an end that never comes)', async () => {
    const failed = new PassThrough();
    failed.on('error', () => undefined); // the parser's own listener, as busboy has
    failed.destroy(new Error('Unexpected end of form'));
    await new Promise((r) => setImmediate(r));
    await expect(peekHead(failed, 64)).rejects.toThrow('Unexpected end of form');
  });

  it('refuses a stream destroyed without an error while it is being read', async () => {
    const source = new PassThrough();
    const peek = peekHead(source, 64);
    source.write(Buffer.from('%PDF'));
    source.destroy();
    await expect(peek).rejects.toThrow('closed before its end');
  });

});
