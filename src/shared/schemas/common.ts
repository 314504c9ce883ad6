import { z } from 'zod';

/**
 * NUL (which PostgreSQL text cannot hold) and UTF-16 surrogates without their pair (which no UTF-8 text
 * can hold): no field of the site has a use for either, and letting them through turned into database
 * errors. Decision 0018.
 */
const INVALID_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const INVALID_TEXT_MESSAGE = 'This contains characters that are not allowed (a NUL byte or broken Unicode).';
export const isValidText = (value: string) => !INVALID_TEXT.test(value);

/** The one string of every shared schema: z.string() plus the rule above, so every field refuses them. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isValidText, { message: INVALID_TEXT_MESSAGE });

/**
 * Characters no XML 1.0 document can hold, even escaped: C0 controls other than tab, line feed and carriage
 * return, and the noncharacters U+FFFE and U+FFFF. A reader's name and a gift message are printed into the
 * personal EPUB (XHTML), so their fields refuse them; a one-line name refuses every control character
 * (tab, line breaks, DEL and the C1 controls too). Decision 0058.
 */
const NON_XML_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const LINE_CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const CONTROL_CHARACTERS_MESSAGE = 'This contains control characters that are not allowed.';

/** A name or other one-line text: `text()` that also refuses every control character. */
export const lineText = (params?: Parameters<typeof z.string>[0]) =>
  text(params).refine((v) => !LINE_CONTROL_CHARACTERS.test(v), { message: CONTROL_CHARACTERS_MESSAGE });

/** A message of several lines: tabs and line breaks are text; the characters XML cannot hold are refused. */
export const paragraphText = (params?: Parameters<typeof z.string>[0]) =>
  text(params).refine((v) => !NON_XML_CHARACTERS.test(v), { message: CONTROL_CHARACTERS_MESSAGE });

const NON_XML_OR_BROKEN = new RegExp(`${NON_XML_CHARACTERS.source}|${LONE_SURROGATE.source}`, 'g');
const LINE_CONTROL_OR_BROKEN = new RegExp(`${LINE_CONTROL_CHARACTERS.source}|${LONE_SURROGATE.source}`, 'g');

/** Text without what XML 1.0 cannot hold (and without unpaired surrogates): for text printed into markup. */
export const xmlPrintable = (value: string) => value.replace(NON_XML_OR_BROKEN, '');

/**
 * A one-line value kept rather than refused (the name an upload came with): control characters and broken
 * Unicode dropped, then cut to `max` characters without splitting a character in two.
 */
export function printableLine(value: string, max: number): string {
  return Array.from(value.replace(LINE_CONTROL_OR_BROKEN, '')).slice(0, max).join('');
}

/**
 * The years a date-time of the site may fall in (its UTC instant). Every date a client sends is a release,
 * an expiry, a delivery or the moment a reader was at a page: none is before 1900 or after 9999. Year 0000
 * does not exist in PostgreSQL, years 0001-0099 were read back as 19xx/20xx by the date parsing of the
 * drivers, and a year past 9999 has no four-digit ISO form. Decision 0058.
 */
export const DATE_TIME_YEARS = { min: 1900, max: 9999 } as const;
export const DATE_TIME_RANGE_MESSAGE = `The date must fall between the years ${DATE_TIME_YEARS.min} and ${DATE_TIME_YEARS.max}`;
const EARLIEST_DATE_TIME = Date.UTC(DATE_TIME_YEARS.min, 0, 1);
const LATEST_DATE_TIME = Date.UTC(DATE_TIME_YEARS.max + 1, 0, 1) - 1;
export const isDateTimeInRange = (iso: string) => {
  const time = new Date(iso).getTime();
  return time >= EARLIEST_DATE_TIME && time <= LATEST_DATE_TIME;
};

/**
 * The one date-time of every shared schema: an ISO 8601 date and time with a zone ("Z" or "+01:00"), a
 * real calendar day, within DATE_TIME_YEARS. `message` is the field's own words for a malformed value.
 */
export const isoDateTime = (message: string) =>
  z.iso.datetime({ offset: true, message }).refine(isDateTimeInRange, { message: DATE_TIME_RANGE_MESSAGE });

/** The one error shape every API failure answers with. */
export const errorSchema = z.object({
  message: text(),
  code: text().optional(),
  fields: z.record(text(), text()).optional(),
});
export type ApiErrorBody = z.infer<typeof errorSchema>;

/** Ids are PostgreSQL integers: anything larger cannot name a row and is a 400, never a database error. */
export const MAX_DB_ID = 2_147_483_647;
export const dbId = () => z.coerce.number().int().positive().max(MAX_DB_ID);

export const idParam = z.object({ id: dbId() });

export const INVALID_FORMAT_MESSAGE = 'Invalid format specified';

/** What an admin report answers when it cannot start or finish in its time (503). */
export const REPORT_TOO_LONG = 'This report is taking too long. Please try again in a few minutes.';

/** Letters, digits and ._%+- before an @, then a domain, then a top-level part of 2 or more letters. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

export const successMessageSchema = z.object({ success: z.boolean(), message: text() });
