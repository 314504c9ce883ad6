/** Admin data: query keys are the API paths (default reads, docs/PRODUCT.md, Requests), mutations invalidate them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Book, BookInput } from '@shared/schemas/books';
import type { AdminSyncMap, SyncMapCorrection } from '@shared/schemas/sync-map';
import type {
  AdminAsset,
  AdminMessage,
  AdminOrder,
  AdminPost,
  SubscriberPage,
  UserPage,
  AuditEntry,
  MessageList,
  OrderPage,
  PostInput,
  PostPage,
  SiteSettings,
  UploadedImage,
} from '@shared/schemas/admin';
import { apiRequest, getAuthToken, getCsrfToken, throwIfResNotOk } from '@client/lib/api-client';
import { useKeysetPages } from '@client/lib/keyset-pages';

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await apiRequest('GET', url, undefined, { signal });
  return (await res.json()) as T;
}
async function sendJson<T>(method: 'POST' | 'PUT', url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as T;
}

// ---- books ------------------------------------------------------------------------------------

export const useBooks = () => useQuery<Book[]>({ queryKey: ['/api/books'], staleTime: 0 });

export function useBook(id: number | null) {
  return useQuery<Book>({ queryKey: ['/api/books', id ?? 0], enabled: id !== null, staleTime: 0, gcTime: 0 });
}

export function useSaveBook(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: BookInput) =>
      id === null ? sendJson<Book>('POST', '/api/admin/books', input) : sendJson<Book>('PUT', `/api/admin/books/${id}`, input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/books'] }),
  });
}

// ---- posts ------------------------------------------------------------------------------------

export const usePosts = () => useKeysetPages<PostPage>('/api/admin/posts');
export const usePost = (id: number | null) =>
  useQuery<AdminPost>({ queryKey: ['/api/admin/posts', id ?? 0], enabled: id !== null, staleTime: 0, gcTime: 0 });

export function useSavePost(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PostInput) =>
      id === null ? sendJson<AdminPost>('POST', '/api/admin/posts', input) : sendJson<AdminPost>('PUT', `/api/admin/posts/${id}`, input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/posts'] }),
  });
}

export function usePublishPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isPublished }: { id: number; isPublished: boolean }) =>
      sendJson<AdminPost>('POST', `/api/admin/posts/${id}/publish`, { isPublished }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/posts'] }),
  });
}

// ---- files ------------------------------------------------------------------------------------

export const useAssets = () => useQuery<AdminAsset[]>({ queryKey: ['/api/admin/files'], staleTime: 0 });

/** Multipart upload; the JSON api client cannot send a body that is not JSON, so this speaks fetch directly. */
/** Sends one file as multipart/form-data (field "file") with the session's token and the CSRF token. */
async function sendFile(method: 'PUT' | 'POST', url: string, file: File, fields: Record<string, string> = {}): Promise<Response> {
  const body = new FormData();
  // Fields go before the file: the server reads them as it reaches the file, before storing anything.
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', file, file.name);
  const headers = new Headers();
  const token = getAuthToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    headers.set('X-CSRF-Token', await getCsrfToken());
  } catch (error) {
    console.error(error);
  }
  const res = await fetch(url, { method, body, headers, credentials: 'include' });
  await throwIfResNotOk(res);
  return res;
}

/** "Tell owners about this edition" with the author's note, for a replaced e-book or PDF (decision 0091). */
export interface EditionNotice {
  note: string;
}

export async function uploadAsset(bookId: number, format: string, file: File, notice?: EditionNotice): Promise<AdminAsset> {
  const fields: Record<string, string> = notice ? { notifyOwners: 'true', note: notice.note } : {};
  return (await (await sendFile('PUT', `/api/admin/books/${bookId}/files/${format}`, file, fields)).json()) as AdminAsset;
}

/** POST /api/admin/images: answers the public URL of the stored image. */
export async function uploadImage(file: File): Promise<UploadedImage> {
  return (await (await sendFile('POST', '/api/admin/images', file)).json()) as UploadedImage;
}

export function useUploadAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ bookId, format, file, notice }: { bookId: number; format: string; file: File; notice?: EditionNotice }) =>
      uploadAsset(bookId, format, file, notice),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/files'] }),
  });
}

// ---- orders -----------------------------------------------------------------------------------

export interface OrderFilters {
  status?: string;
  format?: string;
  q?: string;
  page: number;
}

export function useOrders(filters: OrderFilters) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') params.set(k, String(v));
  return useQuery({
    queryKey: ['/api/admin/orders', filters],
    queryFn: ({ signal }) => getJson<OrderPage>(`/api/admin/orders?${params}`, signal),
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}

export function useOrderAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: number; action: 'ship' | 'reset-download' | 'refund'; body?: unknown }) =>
      sendJson<AdminOrder>('POST', `/api/admin/orders/${id}/${action}`, body),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ['/api/admin/orders'] });
      // The dashboard's figures include this order (query keys are API paths).
      client.invalidateQueries({ queryKey: ['/api/dashboard/stats'] });
    },
  });
}

// ---- readers, messages, settings --------------------------------------------------------------

export const useMessages = (filter: 'all' | 'unread') => useKeysetPages<MessageList>('/api/admin/messages', { filter });

/** The inbox's unread count alone (the dashboard's badge): a page of one message carries it. */
export const useUnreadCount = () =>
  useQuery({
    queryKey: ['/api/admin/messages', { filter: 'unread', limit: '1' }],
    queryFn: ({ signal }) => getJson<MessageList>('/api/admin/messages?filter=unread&limit=1', signal),
    select: (list) => list.unread,
    staleTime: 0,
  });

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => sendJson<AdminMessage>('POST', `/api/admin/messages/${id}/read`, { read }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/api/admin/messages'] }),
  });
}

export const useSubscribers = (q: string) => useKeysetPages<SubscriberPage>('/api/admin/subscribers', { q });
export const useUsers = (q: string) => useKeysetPages<UserPage>('/api/admin/users', { q });
export const useAudit = () => useQuery<AuditEntry[]>({ queryKey: ['/api/admin/audit'], staleTime: 0 });
export const useSettings = () => useQuery<SiteSettings>({ queryKey: ['/api/admin/settings'], staleTime: 0, gcTime: 0 });

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SiteSettings) => sendJson<SiteSettings>('PUT', '/api/admin/settings', input),
    onSuccess: (data) => client.setQueryData(['/api/admin/settings'], data),
  });
}

/** Fetches a CSV export with the caller's credentials and hands it to the browser as a download. */
export async function downloadCsv(url: string): Promise<void> {
  const res = await apiRequest('GET', url);
  const blob = await res.blob();
  const name = res.headers.get('Content-Disposition')?.match(/filename="([^"]+)"/)?.[1] ?? 'export.csv';
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

// ---- read <-> listen pairing ------------------------------------------------------------------

const syncMapUrl = (bookId: number) => `/api/admin/books/${bookId}/sync-map`;

export const useAdminSyncMap = (bookId: number, enabled: boolean) =>
  useQuery<AdminSyncMap>({ queryKey: [syncMapUrl(bookId)], queryFn: ({ signal }) => getJson(syncMapUrl(bookId), signal), enabled, retry: false });

/** Saves the author's pairing (`pairs`), or with null goes back to pairing by title and order. */
export function useCorrectSyncMap(bookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (pairs: SyncMapCorrection['pairs'] | null) =>
      pairs ? sendJson<AdminSyncMap>('PUT', syncMapUrl(bookId), { pairs }) : ((await (await apiRequest('DELETE', syncMapUrl(bookId))).json()) as AdminSyncMap),
    onSuccess: (map) => client.setQueryData([syncMapUrl(bookId)], map),
  });
}
