/**
 * Reading an API failure in a feature: the server's message, field errors, the status. Kept apart from
 * the API client, which every page loads at once, so that only the code that shows an error carries this.
 */
import { ApiError } from './api-client';

export { ApiError } from './api-client';

/** What a page says when a request got no answer at all. */
export const NO_ANSWER_MESSAGE = 'We could not reach the website. Please check your connection and try again.';

/**
 * A refusal that pressing again cannot mend (a used, expired or unknown link), as opposed to no answer or a
 * busy server (429, 5xx), which a second press may get past.
 */
export const isFinalRefusal = (status: number): boolean => status < 500 && status !== 429;

/** The server's message for an API refusal, else the fallback (network failures included). */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** Field errors of a refused form, by field name (empty when the server named none). */
export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fields : {};
}

export const isApiStatus = (error: unknown, status: number): error is ApiError =>
  error instanceof ApiError && error.status === status;

/** True for a failure that is not an answer of the server (offline, DNS, aborted). */
export const isNetworkError = (error: unknown): boolean => !(error instanceof ApiError);

/** The readable part of any failure: the server's message, else its answer, else the failure itself. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.detail;
  return error instanceof Error ? error.message : String(error);
}
