/**
 * Library reads and the download sequence (SPEC 4 "Library download button", SPEC 7 notes, SPEC 8
 * download toasts): asset lookup -> one-time link -> browser download.
 */
import { useQuery } from '@tanstack/react-query';
import { LIBRARY_QUERY_RETRIES } from '@shared/constants';
import { type AssetLookup, type DownloadLink, FILE_NOT_READY_MESSAGE, type LibraryItem, type Order } from '@shared/schemas/library';
import { apiErrorOf, apiFetch } from '@client/lib/api-client';

export const LIBRARY_KEY = ['/api/library/books'] as const;
export const ORDERS_KEY = ['/api/library/orders'] as const;

/** A non-ok status or a non-array body counts as an empty library (SPEC 7); only network errors throw. */
export async function fetchLibrary(signal?: AbortSignal): Promise<LibraryItem[]> {
  const res = await apiFetch('GET', LIBRARY_KEY[0], undefined, {
    signal,
    headers: { Accept: 'application/json', 'Cache-Control': 'no-cache' },
  });
  if (!res.ok) return [];
  const data: unknown = await res.json().catch(() => null);
  return Array.isArray(data) ? (data as LibraryItem[]) : [];
}

export function useLibrary(enabled: boolean) {
  return useQuery({
    queryKey: LIBRARY_KEY,
    queryFn: ({ signal }) => fetchLibrary(signal),
    enabled,
    retry: LIBRARY_QUERY_RETRIES,
    refetchOnWindowFocus: false,
    refetchOnMount: 'always',
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

/** Asks for the asset, then spends the download and gets the link. Throws Errors with SPEC 8 messages. */
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
