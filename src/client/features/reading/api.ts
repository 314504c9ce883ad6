/**
 * Reading room requests: the owner's content, positions synced across devices, audiobook chapters, the
 * free sample, and the library's progress lines.
 */
import { useQuery } from '@tanstack/react-query';
import type { ChaptersAnswer, Position, ProgressSummary } from '@shared/schemas/reading';
import type { SyncMapAnswer } from '@shared/schemas/sync-map';
import { apiFetch, getAuthToken, getCsrfToken } from '@client/lib/api-client';

export type ContentFormat = 'ebook' | 'pdf' | 'audiobook';

export const contentUrl = (bookId: number, format: ContentFormat) => `/api/library/${bookId}/${format}/content`;
export const positionUrl = (bookId: number, format: ContentFormat) => `/api/library/${bookId}/${format}/position`;
export const SAMPLE_URL = '/api/reading/sample';
export const PROGRESS_KEY = ['/api/reading/progress'] as const;

/** A refusal the page explains in words: not signed in, not owned, or nothing to read. */
export class ContentError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    /** The server's code, e.g. NOT_RELEASED for a pre-ordered book before its release. */
    public readonly code?: string,
  ) {
    super(message);
  }
}

async function refusal(res: Response): Promise<ContentError> {
  const body = (await res.json().catch(() => null)) as { message?: string; code?: string } | null;
  return new ContentError(res.status, body?.message ?? 'The book could not be opened. Please try again in a moment.', body?.code);
}

/** The whole file as a Blob (the EPUB and PDF renderers need random access to it). */
export async function fetchContent(url: string, signal?: AbortSignal): Promise<Blob> {
  const res = await apiFetch('GET', url, undefined, { signal });
  if (!res.ok) throw await refusal(res);
  return res.blob();
}

export async function fetchPosition(bookId: number, format: ContentFormat, signal?: AbortSignal): Promise<Position | null> {
  const res = await apiFetch('GET', positionUrl(bookId, format), undefined, { signal, headers: { 'Cache-Control': 'no-cache' } });
  if (!res.ok) throw await refusal(res);
  return ((await res.json()) as { position: Position | null }).position;
}

/**
 * Saves a position. `keepalive` lets the request finish while the page is being left. A 409 means another
 * device saved a later place: nothing to do here, the reader simply stays where they are.
 */
export async function putPosition(bookId: number, format: ContentFormat, position: Position, keepalive = false): Promise<number> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    headers['X-CSRF-Token'] = await getCsrfToken();
  } catch (error) {
    console.error(error);
  }
  const res = await fetch(positionUrl(bookId, format), {
    method: 'PUT',
    headers,
    body: JSON.stringify(position),
    credentials: 'include',
    keepalive,
  });
  return res.status;
}

export async function fetchChapters(bookId: number, signal?: AbortSignal): Promise<ChaptersAnswer> {
  const res = await apiFetch('GET', `/api/library/${bookId}/audiobook/chapters`, undefined, { signal });
  if (!res.ok) throw await refusal(res);
  return (await res.json()) as ChaptersAnswer;
}

/**
 * The book's chapter pairing for switching between reading and listening, or null when the reader does not
 * own both formats (or the book lacks either file): then there is simply no switch to offer.
 */
export function useSyncMap(bookId: number, enabled: boolean) {
  return useQuery({
    queryKey: [`/api/library/${bookId}/sync-map`],
    queryFn: async ({ signal }): Promise<SyncMapAnswer | null> => {
      const res = await apiFetch('GET', `/api/library/${bookId}/sync-map`, undefined, { signal });
      if (res.status === 403 || res.status === 404) return null;
      if (!res.ok) throw await refusal(res);
      return (await res.json()) as SyncMapAnswer;
    },
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

/** The reader's saved positions, for "Read 37%" and "Listened 1 h 12 min" in the library. */
export function useReadingProgress(enabled: boolean) {
  return useQuery({
    queryKey: PROGRESS_KEY,
    queryFn: async ({ signal }) => {
      const res = await apiFetch('GET', PROGRESS_KEY[0], undefined, { signal, headers: { 'Cache-Control': 'no-cache' } });
      if (!res.ok) return [] as ProgressSummary[];
      return (await res.json()) as ProgressSummary[];
    },
    enabled,
    refetchOnMount: 'always',
  });
}

export { listenedLabel, readLabel } from './format';

/** Where a library row's "Read" / "Listen" button goes, or null for a format that cannot be opened here. */
export { roomPath } from '@client/lib/room-path';
