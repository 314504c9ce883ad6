/** The catalogue's reads; the server embeds the same answers under the same keys in /books and /books/{slug}. */
import { useQuery } from '@tanstack/react-query';
import type { BookPage, Catalogue } from '@shared/schemas/catalogue';

export const CATALOGUE_KEY = ['/api/catalogue'] as const;

export function useCatalogue() {
  return useQuery<Catalogue>({ queryKey: CATALOGUE_KEY });
}

/** A book's page; an unknown book the server already answered (embedded in the page) is not asked for again. */
export function useBookPage(slug: string) {
  return useQuery<BookPage>({ queryKey: [...CATALOGUE_KEY, slug], enabled: slug.length > 0, retryOnMount: false });
}

/** "No such book": a 404 from a fetch, or the one the server embedded ("404: {body}", docs/PRODUCT.md, Error messages). */
export const isMissingBook = (error: Error | null) => error !== null && /^404: /.test(error.message);
