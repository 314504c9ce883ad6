/** POST /api/contact and the SPEC 8 reading of its failures. */
import type { ContactInput } from '@shared/schemas/contact';
import { apiRequest } from '@client/lib/api-client';

export async function sendContactMessage(input: ContactInput): Promise<{ message?: string }> {
  const res = await apiRequest('POST', '/api/contact', input);
  return (await res.json().catch(() => ({}))) as { message?: string };
}

/**
 * The api client throws "<status>: <body>". A server refusal carries a JSON body with a message;
 * anything else (no status prefix) is a network failure.
 */
export function serverMessage(error: unknown): { network: boolean; message?: string } {
  const text = error instanceof Error ? error.message : String(error);
  const match = /^(\d{3}): ([\s\S]*)$/.exec(text);
  if (!match) return { network: true };
  try {
    const body = JSON.parse(match[2]) as { message?: unknown };
    return { network: false, message: typeof body.message === 'string' ? body.message : undefined };
  } catch {
    return { network: false };
  }
}
