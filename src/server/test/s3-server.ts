import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
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

/** A request the signature check received, as it arrived. */
export interface ReceivedS3Request {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** For a presigned request: whether its signature matched what was received and it had not expired. */
  presigned: 'valid' | 'bad-signature' | 'expired' | null;
}

export interface S3SignatureCheck {
  /** The endpoint to sign for and send requests to: this check, in front of the local S3 server. */
  endpoint: string;
  requests: ReceivedS3Request[];
  /** While true, every presigned request is refused as expired. */
  refusing: boolean;
  close(): Promise<void>;
}

/** The query parameters a presigner adds; the rest of the query is what it signed. */
const PRESIGN_PARAMS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Content-Sha256'];

/** Headers AWS S3 and MinIO put on their answers that s3rver does not: what a proxy must not pass on. */
const STORE_HEADERS = {
  'x-amz-request-id': '188B5C2A1F3D4E5F',
  'x-amz-id-2': 'dd9025bab4ad464b049177c95eb6ebf374d3b3fd1af9251148b658df7ac2e3e8',
  'x-amz-server-side-encryption': 'AES256',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  vary: 'Origin, Accept-Encoding',
  'x-ratelimit-limit': '1234',
  'x-ratelimit-remaining': '1234',
};

/**
 * s3rver takes any SigV4 signature, where S3 computes it again over the request it received (method, path,
 * query, and the Host and other headers the link names as signed) and refuses a mismatch or an expired link
 * with 403. This front does that check for presigned requests, records every request and passes the good
 * ones on to `s3`, so a test sees what a real store would make of what nginx sends it; the answers get a
 * real store's extra headers.
 */
export async function startSignatureCheck(s3: LocalS3): Promise<S3SignatureCheck> {
  const target = new URL(s3.endpoint);
  const { options } = s3;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId!, secretAccessKey: options.secretAccessKey! },
  });
  const presigner = new S3RequestPresigner({ ...client.config, signingName: 's3' });
  const requests: ReceivedS3Request[] = [];

  async function judge(req: http.IncomingMessage): Promise<ReceivedS3Request['presigned']> {
    const url = new URL(req.url!, 'http://check');
    const given = Object.fromEntries(url.searchParams);
    if (!given['X-Amz-Signature']) return null;
    const date = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(given['X-Amz-Date'] ?? '');
    if (!date) return 'bad-signature';
    const signingDate = new Date(Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]));
    const expiresIn = Number(given['X-Amz-Expires']);
    const [hostname, port] = String(req.headers.host ?? '').split(':');
    const headers = Object.fromEntries(given['X-Amz-SignedHeaders'].split(';').map((name) => [name, String(req.headers[name] ?? '')]));
    const query = Object.fromEntries(Object.entries(given).filter(([name]) => !PRESIGN_PARAMS.includes(name)));
    const again = await presigner.presign(
      { method: req.method!, protocol: 'http:', hostname, port: port ? Number(port) : undefined, path: url.pathname, query, headers },
      { signingDate, expiresIn },
    );
    if (again.query?.['X-Amz-Signature'] !== given['X-Amz-Signature']) return 'bad-signature';
    return Date.now() > signingDate.getTime() + expiresIn * 1000 ? 'expired' : 'valid';
  }

  const server = http.createServer((req, res) => {
    judge(req).then(
      (verdict) => {
        const presigned = verdict && check.refusing ? 'expired' : verdict;
        requests.push({ method: req.method!, url: req.url!, headers: req.headers, presigned });
        if (presigned === 'bad-signature' || presigned === 'expired') {
          res.writeHead(403, { 'content-type': 'application/xml' });
          const code = presigned === 'expired' ? 'AccessDenied' : 'SignatureDoesNotMatch';
          res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Resource>${req.url!.split('?')[0]}</Resource></Error>`);
          return;
        }
        const onward = http.request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
          (answer) => {
            res.writeHead(answer.statusCode!, { ...answer.headers, ...STORE_HEADERS });
            answer.pipe(res);
          },
        );
        onward.on('error', (error) => res.destroy(error));
        req.pipe(onward);
      },
      (error: Error) => res.destroy(error),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const check: S3SignatureCheck = {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    refusing: false,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      client.destroy();
    },
  };
  return check;
}
