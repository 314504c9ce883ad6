/**
 * Reading room schemas: the owner's content stream, reading positions synced across devices, and the
 * chapter marks of an audiobook.
 */
import { z } from 'zod';
import { DIGITAL_FORMATS } from '../constants';
import { dbId, isoDateTime, text } from './common';

export const READABLE_FORMATS = ['ebook', 'pdf'] as const;
export type ReadableFormat = (typeof READABLE_FORMATS)[number];

export const readingParams = z.object({
  bookId: dbId(),
  format: z.enum(DIGITAL_FORMATS, { message: 'Invalid format specified' }),
});
export type ReadingParams = z.infer<typeof readingParams>;

/** The longest locator accepted: an EPUB CFI of a deep node stays far below this. */
export const MAX_LOCATOR_LENGTH = 1000;

/**
 * A place in a format: an EPUB CFI (`epubcfi(...)`), a PDF page number, or seconds into the audio, as
 * text. `progress` is the share already read or heard (0-1). `updatedAt` is when the reader was there.
 */
export const positionSchema = z.object({
  locator: text()
    .trim()
    .min(1, 'A locator is required')
    .max(MAX_LOCATOR_LENGTH, `The locator must be at most ${MAX_LOCATOR_LENGTH} characters`),
  progress: z.number().min(0, 'Progress must be between 0 and 1').max(1, 'Progress must be between 0 and 1'),
  updatedAt: isoDateTime('updatedAt must be an ISO 8601 date-time'),
});
export type Position = z.infer<typeof positionSchema>;

/** GET answer: the stored position, or null when the reader has not opened this format yet. */
export const positionAnswerSchema = z.object({ position: positionSchema.nullable() });
export type PositionAnswer = z.infer<typeof positionAnswerSchema>;

/** 409 answer of a stale write: the error shape plus the newer position the device should move to. */
export const stalePositionSchema = z.object({
  message: text(),
  code: text(),
  position: positionSchema,
});

export const chapterSchema = z.object({
  title: text(),
  /** Seconds from the start of the file. */
  start: z.number(),
  end: z.number().nullable(),
});
export type Chapter = z.infer<typeof chapterSchema>;

export const chaptersAnswerSchema = z.object({
  chapters: z.array(chapterSchema),
  /** Seconds, when the file says. */
  duration: z.number().nullable(),
});
export type ChaptersAnswer = z.infer<typeof chaptersAnswerSchema>;

/** The library's per-format progress line: "Read 37%", "Listened 1 h 12 min". */
export const progressSummarySchema = z.object({
  bookId: z.number().int(),
  format: z.enum(DIGITAL_FORMATS),
  progress: z.number(),
  locator: text(),
  updatedAt: text(),
});
export type ProgressSummary = z.infer<typeof progressSummarySchema>;
export const progressListSchema = z.array(progressSummarySchema);

export { SAMPLE_END_TEXT } from '../constants';
