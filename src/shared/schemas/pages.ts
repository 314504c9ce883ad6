import { z } from 'zod';

/**
 * Keyset pages (decision 0071). A list answers `nextCursor`, the position of its last row (the sort value
 * exactly as the database holds it, and the id that breaks ties); the next page is asked for with
 * `after=<nextCursor>`. Rows inserted meanwhile never shift a page, and page 1,000 costs what page 1 does.
 */
export interface Cursor {
  key: string;
  id: number;
}

const toBase64Url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (s: string) => atob(s.replace(/-/g, '+').replace(/_/g, '/'));

export function encodeCursor(cursor: Cursor): string {
  // UTF-8 first: a sort value (a discount code, a title) may hold any character, btoa only bytes.
  return toBase64Url(String.fromCharCode(...new TextEncoder().encode(JSON.stringify([cursor.key, cursor.id]))));
}

function decodeCursor(value: string, keyShape: RegExp | undefined): Cursor | null {
  try {
    const bytes = Uint8Array.from(fromBase64Url(value), (c) => c.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [key, id] = parsed as unknown[];
    if (typeof key !== 'string' || key.length > 200 || !Number.isSafeInteger(id) || (id as number) < 1) return null;
    if (keyShape && !keyShape.test(key)) return null;
    return { key, id: id as number };
  } catch {
    return null;
  }
}

export const INVALID_CURSOR = 'This page link is not valid. Start again from the first page.';

/** A timestamp as PostgreSQL writes it (ISO style): the key of every list sorted by a time. */
export const TIMESTAMP_KEY = /^\d{4,6}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}( BC)?$/;

/**
 * The `after` query parameter: an opaque cursor from a `nextCursor`, checked and decoded at the edge.
 * With `keyShape`, a cursor whose sort value could not come from this list (another list's cursor) is
 * refused here too, rather than failing in the database.
 */
export const cursorParam = (keyShape?: RegExp) =>
  z
    .string()
    .max(400)
    .regex(/^[A-Za-z0-9_-]+$/, INVALID_CURSOR)
    .transform((value, ctx) => {
      const cursor = decodeCursor(value, keyShape);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
        return z.NEVER;
      }
      return cursor;
    });

/** How many rows a keyset page may ask for, and how many it gets unless it says. */
export const PAGE_LIMIT_MAX = 200;
export const pageLimitParam = (fallback: number) => z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(fallback);

export const nextCursorSchema = z.string().nullable();
