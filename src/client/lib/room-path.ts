/**
 * Where a format is opened on this site: the reading room for the e-book and the PDF, the player for the
 * audiobook. The library's rows and the purchase section's "In your library" cards both link there.
 */
export function roomPath(bookId: number, format: string): string | null {
  if (format === 'ebook' || format === 'pdf') return `/read/${bookId}/${format}`;
  if (format === 'audiobook') return `/listen/${bookId}`;
  return null;
}
