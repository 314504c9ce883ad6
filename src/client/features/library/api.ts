/**
 * Library reads and the download sequence (docs/PRODUCT.md, Library; Downloads
 * download toasts): asset lookup -> one-time link -> browser download.
 */
import { useQuery } from '@tanstack/react-query';
import { LIBRARY_QUERY_RETRIES } from '@shared/constants';
import { type AssetLookup, type DownloadLink, FILE_NOT_READY_MESSAGE, type LibraryItem, type Order } from '@shared/schemas/library';
import { DOWNLOAD_REQUEST_MESSAGES } from '@shared/schemas/download-requests';
import { apiErrorOf, apiFetch } from '@client/lib/api-client';

export const LIBRARY_KEY = ['/api/library/books'] as const;
export const ORDERS_KEY = ['/api/library/orders'] as const;

/** A non-ok status or a non-array body counts as an empty library (docs/PRODUCT.md, Library); only network errors throw. */
export async function fetchLibrary(signal?: AbortSignal): Promise<LibraryItem[]> {
  const res = await apiFetch('GET', LIBRARY_KEY[0], undefined, {
    signal,
    headers: { Accept: 'application/json', 'Cache-Control': 'no-cache' },
  });
  if (!res.ok) return [];
  const data: unknown = await res.json().catch(() => null);
  return Array.isArray(data) ? (data as LibraryItem[]) : [];
}

/** While a download's link is open the row is looked at again now and then, so it turns "used" once the file is in. */
const OPEN_LINK_REFRESH_MS = 15_000;

export function useLibrary(enabled: boolean) {
  return useQuery({
    queryKey: LIBRARY_KEY,
    queryFn: ({ signal }) => fetchLibrary(signal),
    enabled,
    retry: LIBRARY_QUERY_RETRIES,
    refetchOnWindowFocus: false,
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data?.some((item) => item.resumeUntil) ? OPEN_LINK_REFRESH_MS : false),
  });
}

export async function fetchOrders(signal?: AbortSignal): Promise<Order[]> {
  const res = await apiFetch('GET', ORDERS_KEY[0], undefined, { signal, headers: { Accept: 'application/json' } });
  if (!res.ok) return [];
  const data: unknown = await res.json().catch(() => null);
  return Array.isArray(data) ? (data as Order[]) : [];
}

export function useOrders(enabled: boolean) {
  return useQuery({ queryKey: ORDERS_KEY, queryFn: ({ signal }) => fetchOrders(signal), enabled, refetchOnMount: 'always' });
}

async function messageOf(res: Response): Promise<string | null> {
  const error = await apiErrorOf(res);
  return error.serverMessage ?? (error.body || null);
}

/** Asks for the asset, then spends the download and gets the link. Throws Errors with the messages of docs/PRODUCT.md, Downloads. */
export async function requestDownload(item: LibraryItem): Promise<{ url: string; fileName: string }> {
  const query = `format=${encodeURIComponent(item.format)}&userId=${item.userId}`;
  const assetRes = await apiFetch('GET', `/api/books/${item.bookId}/assets?${query}`);
  if (!assetRes.ok) throw new Error((await messageOf(assetRes)) ?? FILE_NOT_READY_MESSAGE);
  const lookup = (await assetRes.json()) as AssetLookup;
  if (!lookup.success || !lookup.asset) throw new Error(FILE_NOT_READY_MESSAGE);

  // The link spends the one download, so it carries the CSRF token too (the server refuses a bare cookie).
  const linkRes = await apiFetch('GET', `/api/digital-assets/${lookup.asset.id}/download?userId=${item.userId}`, undefined, {
    csrf: true,
  });
  if (!linkRes.ok) throw new Error((await messageOf(linkRes)) ?? 'We could not prepare your download. Please try again in a moment.');
  const link = (await linkRes.json()) as DownloadLink;
  if (!link.success || !link.downloadUrl) throw new Error(link.message || 'We could not prepare your download. Please try again in a moment.');
  return { url: link.downloadUrl, fileName: link.fileName || `${item.book.title}.${item.format}` };
}

/** Starts the browser's own download of the signed link (streamed, resumable, not held in memory). */
export function triggerBrowserDownload(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}

/** The still-open link of this row's interrupted download (nothing is spent). */
export async function requestResumeLink(item: LibraryItem): Promise<{ url: string; fileName: string }> {
  const res = await apiFetch('POST', `/api/library/downloads/${item.id}/resume`);
  if (!res.ok) throw new Error((await messageOf(res)) ?? DOWNLOAD_REQUEST_MESSAGES.noOpenLink);
  const link = (await res.json()) as DownloadLink;
  return { url: link.downloadUrl, fileName: link.fileName || `${item.book.title}.${item.format}` };
}

const RESUME_ATTEMPTS = 3;

/**
 * Fetches the file of an open link by Range requests, so the server counts it as the same transfer
 * (decision 0019): from the first byte, then, if the connection drops, from the byte it stopped at (If-Range
 * makes sure the pieces are of one version). The pieces are then saved as one file under its name.
 */
export async function resumeTransfer(url: string, fileName: string): Promise<void> {
  const pieces: Uint8Array[] = [];
  let received = 0;
  let etag: string | null = null;
  let type = 'application/octet-stream';
  for (let attempt = 1; ; attempt += 1) {
    try {
      const headers: Record<string, string> = { Range: `bytes=${received}-` };
      if (etag) headers['If-Range'] = etag;
      const res = await fetch(url, { headers, credentials: 'same-origin', cache: 'no-store' });
      if (res.status !== 206 || !res.body) throw new Error((await messageOf(res)) ?? 'The download was interrupted. Please try again.');
      etag ??= res.headers.get('ETag');
      type = res.headers.get('Content-Type') ?? type;
      const total = Number(/\/(\d+)$/.exec(res.headers.get('Content-Range') ?? '')?.[1] ?? NaN);
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pieces.push(value);
        received += value.byteLength;
      }
      if (!Number.isFinite(total) || received >= total) break;
    } catch (error) {
      // A refusal from the server (used, expired) is final; a dropped connection is tried again.
      if (attempt >= RESUME_ATTEMPTS || (error instanceof Error && !(error instanceof TypeError))) throw error;
    }
  }
  const blobUrl = URL.createObjectURL(new Blob(pieces as BlobPart[], { type }));
  triggerBrowserDownload(blobUrl, fileName);
  setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
}

/** "Need another download?": the author is asked; the answer's message is what the reader is told. */
export async function requestAnotherDownload(item: LibraryItem): Promise<string> {
  const res = await apiFetch('POST', '/api/library/download-requests', { purchaseId: item.id });
  if (!res.ok) throw new Error((await messageOf(res)) ?? 'Your request could not be sent. Please try again.');
  return ((await res.json()) as { message: string }).message;
}
