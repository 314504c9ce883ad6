/** POST /api/contact and the reading of its failures (docs/PRODUCT.md, Contact). */
import type { ContactInput } from '@shared/schemas/contact';
import { apiRequest } from '@client/lib/api-client';
import { ApiError } from '@client/lib/api-errors';

export async function sendContactMessage(input: ContactInput): Promise<{ message?: string }> {
  const res = await apiRequest('POST', '/api/contact', input);
  return (await res.json().catch(() => ({}))) as { message?: string };
}

/** A server refusal (with its message, when it sent one) or a network failure. */
export function serverMessage(error: unknown): { network: boolean; message?: string } {
  if (!(error instanceof ApiError)) return { network: true };
  return { network: false, message: error.serverMessage ?? undefined };
}
