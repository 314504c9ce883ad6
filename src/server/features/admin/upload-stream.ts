import { Readable } from 'node:stream';

/**
 * Reads the first `n` bytes of a stream (fewer if it ends sooner) and returns them together with a stream
 * of the whole content, head included, so a file can be judged by its first bytes and then streamed on
 * without ever being held whole in memory.
 */
export function peekHead(source: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let ended = false;
    const finish = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.pause();
      const head = Buffer.concat(chunks);
      const body = Readable.from(
        (async function* () {
          if (head.length) yield head;
          if (!ended) for await (const chunk of source) yield chunk as Buffer;
        })(),
        { objectMode: false },
      );
      resolve({ head: head.subarray(0, n), body });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= n) finish();
    };
    const onEnd = () => {
      ended = true;
      finish();
    };
    const onError = (error: Error) => reject(error);
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
  });
}

/**
 * Passes a multipart file stream through, failing it when the parser cut it at the size limit (busboy
 * ends a stream that is too long, flagging it `truncated`), so the store discards what it wrote.
 */
export function failWhenTruncated(body: Readable, file: Readable & { truncated?: boolean }, error: () => Error): Readable {
  return Readable.from(
    (async function* () {
      for await (const chunk of body) yield chunk as Buffer;
      if (file.truncated) throw error();
    })(),
    { objectMode: false },
  );
}
