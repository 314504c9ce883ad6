import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { writeBackup } from '../storage/backup';
import type { FileStore } from '../storage/files';

/** The socket's path: inside DATA_DIR, so only who may read the data may ask for a backup. */
export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'control.sock');

export interface ControlRequest {
  command: 'backup';
  out: string;
}

/**
 * A local Unix socket in DATA_DIR through which the backup command reaches a running server whose PGlite
 * database no other process may open. One JSON request a connection, one JSON answer.
 */
export async function startControlSocket(
  dataDir: string,
  deps: { database: Database; files: FileStore; log: Pick<FastifyBaseLogger, 'info' | 'error'> },
): Promise<{ close(): Promise<void> }> {
  const socketPath = controlSocketPath(dataDir);
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.on('data', async (chunk) => {
      input += chunk;
      if (!input.includes('\n')) return;
      const answer = (body: unknown) => socket.end(`${JSON.stringify(body)}\n`);
      try {
        const request = JSON.parse(input.split('\n')[0]) as ControlRequest;
        if (request.command !== 'backup' || typeof request.out !== 'string' || !path.isAbsolute(request.out)) {
          return answer({ ok: false, error: 'unknown request' });
        }
        const report = await writeBackup(deps.database, deps.files, request.out);
        deps.log.info({ out: request.out, files: report.files }, 'backup written');
        answer({ ok: true, report });
      } catch (error) {
        deps.log.error({ err: error }, 'backup failed');
        answer({ ok: false, error: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** Sends a request to a running server; null when no server listens on DATA_DIR. */
export async function askRunningServer(dataDir: string, request: ControlRequest): Promise<Record<string, unknown> | null> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return null;
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let output = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk) => {
      output += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(output));
      } catch (error) {
        reject(error);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A socket file left by a server that died: nobody is running.
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(null);
      else reject(error);
    });
  });
}
