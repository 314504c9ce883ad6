import { Readable } from 'node:stream';

/**
 * Reads the first `n` bytes of a stream (fewer if it ends sooner) and returns them together with a stream
 * of the whole content, head included, so a file can be judged by its first bytes and then streamed on
 * without ever being held whole in memory.
 */
export function peekHead(source: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  return new Promise((resolve, reject) => {
    // The parser may have failed the stream before we listen (a small, malformed body that had fully
    // arrived while the route was still checking the book): its error event is gone by now.
    if (source.errored || (source.destroyed && !source.readableEnded)) {
      reject(source.errored ?? new Error('The upload stream closed before its end'));
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    let ended = source.readableEnded;
    const stop = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const finish = () => {
      stop();
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
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // Destroyed without an error event reaching us: the body will never end, so do not wait for it.
    const onClose = () => {
      if (ended) return;
      stop();
      reject(source.errored ?? new Error('The upload stream closed before its end'));
    };
    if (ended) {
      finish();
      return;
    }
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}

/**
 * Passes a multipart file stream through and fails it unless it arrived whole and within `limit`, so the
 * store discards what it wrote and the file in service stays. The bytes are counted here as well as
 * checked against the parser's `truncated` flag: busboy ends a stream cut at its limit as if it were
 * complete, and a stream that stopped exactly at the limit before more bytes came looks whole until the
 * flag is read after the end. Any read failure (a malformed body, a dropped connection) becomes
 * `malformed()`, so the caller can tell a bad request from a failing store.
 */
export function guardUpload(
  body: Readable,
  file: Readable & { truncated?: boolean },
  limit: number,
  errors: { tooLarge: () => Error; malformed: () => Error },
): Readable {
  return Readable.from(
    (async function* () {
      let bytes = 0;
      try {
        for await (const chunk of body) {
          bytes += (chunk as Buffer).length;
          if (bytes > limit) throw errors.tooLarge();
          yield chunk as Buffer;
        }
      } catch (error) {
        if (file.truncated) throw errors.tooLarge();
        throw isClientError(error) ? error : errors.malformed();
      }
      if (file.truncated) throw errors.tooLarge();
    })(),
    { objectMode: false },
  );
}

/** An error already meant for the client (it carries a 4xx status). */
function isClientError(error: unknown): boolean {
  const status = (error as { statusCode?: number } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
