import type { LibraryItem } from '@shared/schemas/library';

export interface LibraryGroup {
  book: LibraryItem['book'];
  items: LibraryItem[];
}

/** Groups purchases by book; within a book one row per format, keeping the highest download count. */
export function groupLibrary(items: LibraryItem[]): LibraryGroup[] {
  const groups = new Map<number, LibraryGroup>();
  for (const item of items) {
    const group = groups.get(item.bookId) ?? { book: item.book, items: [] };
    groups.set(item.bookId, group);
    const index = group.items.findIndex((existing) => existing.format === item.format);
    if (index === -1) group.items.push(item);
    else if (item.downloadCount > group.items[index].downloadCount) group.items[index] = item;
  }
  return [...groups.values()];
}

export const isDownloadUsed = (item: Pick<LibraryItem, 'downloadUsed' | 'downloadCount'>) =>
  item.downloadUsed || item.downloadCount >= 1;
