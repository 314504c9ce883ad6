import type { FileStore } from './files';
import { RecentlyUsed } from '../http/recently-used';

/**
 * Stored files found to be bombs or unreadable, by identity (store key and size: a key names one upload's
 * bytes). A file stored before the limits of zip.ts and pdf.ts existed is read and refused once per instance,
 * not on every request for the sample or a personal copy.
 */
const refusedFiles = new RecentlyUsed<Error>(256);

/**
 * Reads a stored file whole and opens it with `open`; an error that `isRefusal` recognises is remembered for
 * that file and thrown again, without reading it, on every later call.
 */
export async function openStoredFile<T>(
  files: FileStore,
  key: string,
  open: (bytes: Buffer) => Promise<T>,
  isRefusal: (error: unknown) => error is Error,
): Promise<T> {
  const stored = await files.stat(key);
  const identity = `${key}:${stored?.size ?? 'missing'}`;
  const known = refusedFiles.get(identity);
  if (known) throw known;
  const chunks: Buffer[] = [];
  for await (const chunk of await files.read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
  try {
    return await open(Buffer.concat(chunks));
  } catch (error) {
    if (isRefusal(error)) refusedFiles.set(identity, error);
    throw error;
  }
}
