import { STORAGE_KEYS } from '@shared/constants';
import { apiFetch, apiRequest, clearCsrfToken, getQueryFn, setAuthToken } from './api-client';
import { ApiError, errorMessage, fieldErrors, isApiStatus, isNetworkError } from './api-errors';
import type { QueryFunctionContext } from '@tanstack/react-query';

type Call = { url: string; init: RequestInit };

/** A fetch double that records calls and answers the CSRF endpoint separately. */
function setup(options: { csrf?: () => Response; answer?: () => Response } = {}) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    if (url === '/api/csrf-token') return options.csrf ? options.csrf() : Response.json({ csrfToken: 'csrf-1' });
    return options.answer ? options.answer() : Response.json({ ok: true });
  });
  vi.stubGlobal('fetch', fetchMock);
  const apiCalls = () => calls.filter((c) => c.url !== '/api/csrf-token');
  const csrfCalls = () => calls.filter((c) => c.url === '/api/csrf-token');
  return { calls, apiCalls, csrfCalls };
}

const header = (call: Call, name: string) => new Headers(call.init.headers).get(name);

function queryContext(queryKey: readonly unknown[]): QueryFunctionContext {
  return { queryKey, signal: new AbortController().signal, meta: undefined } as unknown as QueryFunctionContext;
}

beforeEach(() => {
  clearCsrfToken();
  vi.restoreAllMocks();
});
afterEach(() => vi.unstubAllGlobals());

describe('apiRequest', () => {
  it('includes cookies on every call, the CSRF fetch too', async () => {
    const { calls } = setup();
    await apiRequest('POST', '/api/contact', { name: 'A' });
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(call.init.credentials).toBe('include');
  });

  it('sends the bearer token only when one is stored', async () => {
    const { apiCalls } = setup();
    await apiRequest('GET', '/api/books');
    expect(header(apiCalls()[0], 'Authorization')).toBeNull();

    setAuthToken('tok-123');
    expect(window.localStorage.getItem(STORAGE_KEYS.authToken)).toBe('tok-123');
    await apiRequest('GET', '/api/books');
    expect(header(apiCalls()[1], 'Authorization')).toBe('Bearer tok-123');
  });

  it('uses a JSON content type only when there is a body', async () => {
    const { apiCalls } = setup();
    await apiRequest('POST', '/api/subscribe', { email: 'a@b.co', name: '' });
    await apiRequest('POST', '/api/users/logout');
    expect(header(apiCalls()[0], 'Content-Type')).toBe('application/json');
    expect(apiCalls()[0].init.body).toBe(JSON.stringify({ email: 'a@b.co', name: '' }));
    expect(header(apiCalls()[1], 'Content-Type')).toBeNull();
  });

  it('fetches the CSRF token once, caches it, and sends it on mutations but not on GET/HEAD', async () => {
    const { apiCalls, csrfCalls } = setup();
    await apiRequest('GET', '/api/books');
    await apiRequest('HEAD', '/api/books');
    expect(csrfCalls()).toHaveLength(0);
    expect(header(apiCalls()[0], 'X-CSRF-Token')).toBeNull();

    await apiRequest('POST', '/api/contact', {});
    await apiRequest('PUT', '/api/admin/books/1', {});
    await apiRequest('DELETE', '/api/thing');
    expect(csrfCalls()).toHaveLength(1);
    for (const call of apiCalls().slice(2)) expect(header(call, 'X-CSRF-Token')).toBe('csrf-1');
  });

  it('clears the cached token after a 403 CSRF_ERROR so the next mutation fetches a fresh one', async () => {
    let status = 403;
    const { csrfCalls } = setup({
      answer: () =>
        status === 403
          ? new Response(JSON.stringify({ message: 'Invalid token', code: 'CSRF_ERROR' }), { status: 403 })
          : Response.json({ ok: true }),
    });
    await expect(apiRequest('POST', '/api/contact', {})).rejects.toThrow('403: {"message":"Invalid token","code":"CSRF_ERROR"}');
    status = 200;
    await apiRequest('POST', '/api/contact', {});
    expect(csrfCalls()).toHaveLength(2);
  });

  it('keeps the cached token after a 403 that is not a CSRF error', async () => {
    let status = 403;
    const { csrfCalls } = setup({
      answer: () => (status === 403 ? new Response('Forbidden', { status: 403 }) : Response.json({})),
    });
    await expect(apiRequest('POST', '/api/x', {})).rejects.toThrow('403: Forbidden');
    status = 200;
    await apiRequest('POST', '/api/x', {});
    expect(csrfCalls()).toHaveLength(1);
  });

  it('logs and still sends the request without the header when the token cannot be fetched', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { apiCalls } = setup({ csrf: () => new Response('boom', { status: 500 }) });
    await apiRequest('POST', '/api/contact', {});
    expect(apiCalls()).toHaveLength(1);
    expect(header(apiCalls()[0], 'X-CSRF-Token')).toBeNull();
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: 'Failed to fetch CSRF token' }));
  });

  it('rejects an empty token with "Received empty CSRF token" and does not cache it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { csrfCalls } = setup({ csrf: () => Response.json({ csrfToken: '' }) });
    await apiRequest('POST', '/api/contact', {});
    await apiRequest('POST', '/api/contact', {});
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: 'Received empty CSRF token' }));
    expect(csrfCalls()).toHaveLength(2);
  });

  it('throws an ApiError "<status>: <body>" on a non-ok answer', async () => {
    setup({ answer: () => new Response('body', { status: 404, statusText: 'Not Found' }) });
    const error = await apiRequest('GET', '/api/books/9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: '404: body', status: 404, body: 'body', serverMessage: null, code: null, fields: {} });
  });

  it('falls back to the status text when the body is empty', async () => {
    setup({ answer: () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    await expect(apiRequest('GET', '/api/books')).rejects.toThrow('500: Internal Server Error');
  });

  it('reads the JSON error shape once: message, code and fields', async () => {
    const body = { message: 'Check the highlighted fields', code: 'VALIDATION_ERROR', fields: { email: 'Invalid email address' } };
    setup({ answer: () => Response.json(body, { status: 400 }) });
    const error = await apiRequest('POST', '/api/contact', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, serverMessage: body.message, code: body.code, fields: body.fields });
    expect((error as Error).message).toBe(`400: ${JSON.stringify(body)}`);
    expect(errorMessage(error, 'fallback')).toBe(body.message);
    expect(fieldErrors(error)).toEqual(body.fields);
    expect(isApiStatus(error, 400)).toBe(true);
    expect(isNetworkError(error)).toBe(false);
    expect(errorMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
    expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true);
  });

  it('sends the CSRF token on a GET only when asked (a download link spends the download)', async () => {
    const { apiCalls } = setup({ csrf: () => Response.json({ csrfToken: 'tok' }) });
    await apiFetch('GET', '/api/books');
    await apiFetch('GET', '/api/digital-assets/1/download', undefined, { csrf: true });
    expect(apiCalls().map((call) => header(call, 'X-CSRF-Token'))).toEqual([null, 'tok']);
  });
});

describe('getQueryFn', () => {
  it('GETs the joined query key as the path and returns the JSON', async () => {
    const { apiCalls } = setup({ answer: () => Response.json({ id: 3, title: 'T' }) });
    const data = await getQueryFn({ on401: 'throw' })(queryContext(['/api/books', 3]));
    expect(apiCalls()[0].url).toBe('/api/books/3');
    expect(apiCalls()[0].init.method).toBe('GET');
    expect(data).toEqual({ id: 3, title: 'T' });
  });

  it('returns null on 401 with on401 returnNull', async () => {
    setup({ answer: () => new Response('Unauthorized', { status: 401, statusText: 'Unauthorized' }) });
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext(['/api/users/1']))).resolves.toBeNull();
  });

  it('throws on 401 by default', async () => {
    setup({ answer: () => new Response('Unauthorized', { status: 401 }) });
    await expect(getQueryFn({ on401: 'throw' })(queryContext(['/api/users/1']))).rejects.toThrow('401: Unauthorized');
  });
});
