/** The release date of a pre-ordered book in the reader's library, for the reading room's "not out yet" page. */
import { useLibrary } from '@client/features/library/api';
import { isNotReleased } from '@client/features/reading/components/room-message';

export function useReleaseDate(bookId: number, error: unknown): string | null {
  const library = useLibrary(isNotReleased(error));
  return library.data?.find((item) => item.bookId === bookId && item.availableAt)?.availableAt ?? null;
}
