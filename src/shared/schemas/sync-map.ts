/**
 * Read <-> listen: the pairing of a book's e-book chapters with its audiobook chapters (decision 0088).
 * An e-book chapter is named by its place in the book's spine (what the reader reports as it moves), an
 * audiobook chapter by its place in the file's chapter marks.
 */
import { z } from 'zod';
import { text } from './common';

export const ebookChapterSchema = z.object({
  /** Place in the EPUB's spine (0 = the first spine item). */
  index: z.number().int(),
  /**
   * The chapter file's path in the archive ("OEBPS/chapter-3.xhtml"): the same in every reader's personal
   * copy, whose spine has an ex-libris page more, so readers find their place by it.
   */
  path: text(),
  title: text(),
});
export type EbookChapter = z.infer<typeof ebookChapterSchema>;

export const audiobookChapterSchema = z.object({
  /** Place in the audiobook's chapter marks (0 = the first). */
  index: z.number().int(),
  title: text(),
  /** Seconds from the start of the file. */
  start: z.number(),
  end: z.number().nullable(),
});
export type AudiobookChapter = z.infer<typeof audiobookChapterSchema>;

export const chapterPairSchema = z.object({ ebook: ebookChapterSchema, audiobook: audiobookChapterSchema });
export type ChapterPair = z.infer<typeof chapterPairSchema>;

/** GET /api/library/{bookId}/sync-map: the pairs in reading order, and whether the author set them. */
export const syncMapAnswerSchema = z.object({
  bookId: z.number().int(),
  corrected: z.boolean(),
  pairs: z.array(chapterPairSchema),
});
export type SyncMapAnswer = z.infer<typeof syncMapAnswerSchema>;

/** The admin's view: the pairs plus both chapter lists, to correct them from. */
export const adminSyncMapSchema = syncMapAnswerSchema.extend({
  ebookChapters: z.array(ebookChapterSchema),
  audiobookChapters: z.array(audiobookChapterSchema),
});
export type AdminSyncMap = z.infer<typeof adminSyncMapSchema>;

export const MAX_PAIRS = 2000;

/**
 * The author's correction: which e-book chapter goes with which audiobook chapter, by their indexes. Each
 * chapter of either side at most once; the indexes must name chapters the files have (checked on the server).
 */
export const syncMapCorrectionSchema = z.object({
  pairs: z
    .array(
      z.object({
        ebook: z.number({ message: 'Choose an e-book chapter' }).int().min(0, 'Choose an e-book chapter'),
        audiobook: z.number({ message: 'Choose an audiobook chapter' }).int().min(0, 'Choose an audiobook chapter'),
      }),
    )
    .max(MAX_PAIRS, `At most ${MAX_PAIRS} pairs`)
    .refine((pairs) => new Set(pairs.map((p) => p.ebook)).size === pairs.length, { message: 'Each e-book chapter can be paired once' })
    .refine((pairs) => new Set(pairs.map((p) => p.audiobook)).size === pairs.length, { message: 'Each audiobook chapter can be paired once' }),
});
export type SyncMapCorrection = z.infer<typeof syncMapCorrectionSchema>;
