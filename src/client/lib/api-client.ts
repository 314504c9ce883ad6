/**
 * The one way the browser talks to the API (docs/PRODUCT.md, Requests; Errors).
 *
 * - Every call includes cookies (the session cookie) and, when stored, the bearer token.
 * - Mutating calls carry a CSRF token fetched once from /api/csrf-token and cached; a failure to get
 *   one is logged and the call still goes out, so the server (not the client) decides.
 * - Non-ok answers throw one `ApiError` (status, code, fields, the server's message and the raw body),
 *   whose message stays "<status>: <body or statusText>" as docs/PRODUCT.md, Error messages words it. Features read the fields,
 *   never the message text.
 */
import type { QueryFunction } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@shared/constants';
import * as safeStorage from './safe-storage';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const CSRF_PATH = '/api/csrf-token';
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

let cachedCsrfToken: string | null = null;
// Concurrent mutations share one token request instead of racing several.
let pendingCsrfToken: Promise<string> | null = null;

// --- bearer token --------------------------------------------------------------------------------

/** Storage the browser refuses means "no token": the session cookie still signs the reader in. */
export function getAuthToken(): string | null {
  return safeStorage.get(STORAGE_KEYS.authToken);
}

export function setAuthToken(token: string): void {
  safeStorage.set(STORAGE_KEYS.authToken, token);
}

export function clearAuthToken(): void {
  safeStorage.remove(STORAGE_KEYS.authToken);
}

// --- CSRF token ----------------------------------------------------------------------------------

/** Forget the cached CSRF token so the next mutating call fetches a fresh one. */
export function clearCsrfToken(): void {
  cachedCsrfToken = null;
  pendingCsrfToken = null;
}

async function requestCsrfToken(): Promise<string> {
  const res = await fetch(CSRF_PATH, { method: 'GET', credentials: 'include' });
  if (!res.ok) throw new Error('Failed to fetch CSRF token');
  const data = (await res.json()) as { csrfToken?: unknown };
  if (typeof data.csrfToken !== 'string' || data.csrfToken.length === 0) {
    throw new Error('Received empty CSRF token');
  }
  return data.csrfToken;
}

export async function getCsrfToken(): Promise<string> {
  if (cachedCsrfToken) return cachedCsrfToken;
  if (!pendingCsrfToken) {
    pendingCsrfToken = requestCsrfToken()
      .then((token) => {
        cachedCsrfToken = token;
        return token;
      })
      .finally(() => {
        pendingCsrfToken = null;
      });
  }
  return pendingCsrfToken;
}

// --- errors --------------------------------------------------------------------------------------

/** A non-ok answer of the API, read once: its status and the JSON error shape (message, code, fields). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  /** The server's message for people, when it sent the JSON error shape. */
  readonly serverMessage: string | null;
  readonly code: string | null;
  readonly fields: Record<string, string>;
  /** The answer's text as the message shows it: the body, or the status text when there was none. */
  readonly detail: string;

  constructor(status: number, body: string, statusText = '') {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.detail = body || statusText;
    const parsed = parseErrorBody(body);
    this.serverMessage = parsed.message;
    this.code = parsed.code;
    this.fields = parsed.fields;
  }
}

function parseErrorBody(body: string): { message: string | null; code: string | null; fields: Record<string, string> } {
  try {
    const data = JSON.parse(body) as { message?: unknown; code?: unknown; fields?: unknown };
    return {
      message: typeof data.message === 'string' && data.message ? data.message : null,
      code: typeof data.code === 'string' ? data.code : null,
      fields: data.fields && typeof data.fields === 'object' ? (data.fields as Record<string, string>) : {},
    };
  } catch {
    return { message: null, code: null, fields: {} };
  }
}

/** Reads a non-ok answer into an ApiError (and forgets the CSRF token the server refused). */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  if (res.status === 403 && text.includes('CSRF_ERROR')) clearCsrfToken();
  return new ApiError(res.status, text, res.statusText);
}

// --- requests ------------------------------------------------------------------------------------

async function buildHeaders(method: string, hasBody: boolean, csrf: boolean): Promise<Headers> {
  const headers = new Headers();
  if (hasBody) headers.set('Content-Type', 'application/json');
  const token = getAuthToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (csrf || !SAFE_METHODS.has(method)) {
    try {
      headers.set('X-CSRF-Token', await getCsrfToken());
    } catch (error) {
      console.error(error);
    }
  }
  return headers;
}

/**
 * Send a request with the headers of docs/PRODUCT.md, Requests, and return the Response without judging its status.
 * For callers that must tell a server refusal from a network error (logout does).
 */
export async function apiFetch(
  method: HttpMethod,
  url: string,
  body?: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal; csrf?: boolean } = {},
): Promise<Response> {
  const hasBody = body !== undefined;
  // `csrf` also sends the token on a GET that changes something (a download link spends the download).
  const headers = await buildHeaders(method, hasBody, init.csrf === true);
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
  return fetch(url, {
    method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal: init.signal,
  });
}

/** Throw the generic error (docs/PRODUCT.md, Error messages) for a non-ok answer; clear the CSRF cache on a CSRF refusal. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  throw await apiErrorOf(res);
}

/** Send a request and throw on any non-ok answer. Returns the Response for the caller to read. */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
  init?: { headers?: Record<string, string>; signal?: AbortSignal },
): Promise<Response> {
  const res = await apiFetch(method, url, body, init);
  await throwIfResNotOk(res);
  return res;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** ['/api/books', 3] -> '/api/books/3'. Non-path segments (filters, objects) are left out. */
export function queryKeyToPath(queryKey: readonly unknown[]): string {
  return queryKey
    .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
    .map(String)
    .join('/');
}

/** Default data read: GET the query key as a path. `returnNull` turns a 401 into `null`. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await apiFetch('GET', queryKeyToPath(queryKey), undefined, { signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
