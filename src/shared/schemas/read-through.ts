/**
 * Read-through for the author (decision 0089): how far owners got in each format, from their stored
 * positions, aggregated; a bucket of fewer than READ_THROUGH_MIN_READERS readers is never shown.
 */
import { z } from 'zod';
import { text } from './common';

export const READ_THROUGH_MIN_READERS = 5;
/** A saved place at or past this share of the book counts as finished. */
export const FINISHED_PROGRESS = 0.98;

export const readThroughChapterSchema = z.object({
  title: text(),
  /** Share (0-1) of the counted owners who reached this chapter; null when hidden. */
  reached: z.number().nullable(),
  /** True when fewer than READ_THROUGH_MIN_READERS readers reached it: the number is withheld. */
  hidden: z.boolean(),
});

export const readThroughFormatSchema = z.object({
  format: z.enum(['ebook', 'audiobook']),
  /** Owners counted (owners who have not opted out); null when fewer than the minimum. */
  owners: z.number().int().nullable(),
  chapters: z.array(readThroughChapterSchema),
  /** Counted owners whose saved place is at the end; null when fewer than the minimum. */
  finishers: z.number().int().nullable(),
  /** Median days from owning the format to the saved place at its end; null with too few finishers. */
  medianDaysToFinish: z.number().nullable(),
  /** Finishers who own the next book of the series; null without a next book or under the minimum. */
  finishersWhoBoughtNext: z.number().int().nullable(),
});
export type ReadThroughFormat = z.infer<typeof readThroughFormatSchema>;

export const readThroughSchema = z.object({
  bookId: z.number().int(),
  minimumReaders: z.number().int(),
  /** The book that follows this one in its series, when the catalogue has it. */
  nextBook: z.object({ id: z.number().int(), title: text() }).nullable(),
  formats: z.array(readThroughFormatSchema),
});
export type ReadThrough = z.infer<typeof readThroughSchema>;

/** The reader's choice in Account Details: counted in read-through, or not. */
export const readThroughConsentSchema = z.object({ counted: z.boolean({ message: 'counted must be true or false' }) });
export type ReadThroughConsent = z.infer<typeof readThroughConsentSchema>;
