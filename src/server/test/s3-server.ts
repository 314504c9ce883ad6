import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3FileStore, type S3Options } from '../platform/storage/files';

export interface LocalS3 {
  /** Options for an S3FileStore (or S3_* variables) pointing at this server. */
  options: S3Options;
  endpoint: string;
  store(): S3FileStore;
  close(): Promise<void>;
}

/**
 * A real S3-compatible HTTP server on a free local port, holding its objects in a temporary directory.
 * The stores under test talk to it with the real AWS SDK, signatures and all.
 */
export async function startLocalS3(bucket = 'site-files'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'site-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const options: S3Options = {
    bucket,
    region: 'us-east-1',
    endpoint,
    // s3rver's fixed development credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    options,
    endpoint,
    store: () => new S3FileStore(options),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
