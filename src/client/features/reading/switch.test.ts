import { describe, expect, it } from 'vitest';
import type { SyncMapAnswer } from '@shared/schemas/sync-map';
import { listenTarget, readTarget, shownProgress } from './switch';

const map: SyncMapAnswer = {
  bookId: 7,
  corrected: false,
  pairs: [
    { ebook: { index: 1, path: 'OEBPS/c1.xhtml', title: 'Chapter One' }, audiobook: { index: 0, title: 'Chapter One', start: 0, end: 7 } },
    { ebook: { index: 2, path: 'OEBPS/c2.xhtml', title: 'Chapter Two' }, audiobook: { index: 1, title: 'Chapter Two', start: 7, end: 14 } },
    { ebook: { index: 4, path: 'OEBPS/c3.xhtml', title: 'Chapter Three' }, audiobook: { index: 2, title: 'Chapter Three', start: 14, end: null } },
  ],
};

describe('switching between reading and listening', () => {
  it('opens the player at the start of the chapter the reader is in, found by its file in their own copy', () => {
    // The reader's copy has an ex-libris page after the cover: every section is one place further on.
    const spine = ['OEBPS/cover.xhtml', 'OEBPS/ex-libris.xhtml', 'OEBPS/title.xhtml', 'OEBPS/c1.xhtml', 'OEBPS/c2.xhtml', 'OEBPS/c2b.xhtml', 'OEBPS/c3.xhtml'];
    expect(listenTarget(map, 7, spine, 4)).toBe('/listen/7?at=7');
    // c2b.xhtml is not in the contents: it is the rest of chapter two.
    expect(listenTarget(map, 7, spine, 5)).toBe('/listen/7?at=7');
    expect(listenTarget(map, 7, spine, 6)).toBe('/listen/7?at=14');
    expect(listenTarget(map, 7, spine, 1)).toBeNull();
  });

  it('opens the reader at the chapter the listener is in', () => {
    expect(readTarget(map, 7, 0)).toBe('/read/7/ebook?chapter=OEBPS%2Fc1.xhtml');
    expect(readTarget(map, 7, 15.5)).toBe('/read/7/ebook?chapter=OEBPS%2Fc3.xhtml');
    expect(readTarget(map, 7, 6.5)).toBe('/read/7/ebook?chapter=OEBPS%2Fc1.xhtml');
  });

  it('shows only the line of the format used last for a book read and heard', () => {
    const read = { bookId: 7, format: 'ebook' as const, progress: 0.4, locator: 'epubcfi(/6/4!)', updatedAt: '2026-11-26T10:00:00.000Z' };
    const heard = { bookId: 7, format: 'audiobook' as const, progress: 0.5, locator: '15.0', updatedAt: '2026-11-26T11:00:00.000Z' };
    expect(shownProgress([read, heard], 7, 'ebook')).toBeUndefined();
    expect(shownProgress([read, heard], 7, 'audiobook')).toBe(heard);
    expect(shownProgress([read], 7, 'ebook')).toBe(read);
    const pdf = { ...read, format: 'pdf' as const, updatedAt: '2026-11-26T12:00:00.000Z' };
    expect(shownProgress([read, heard, pdf], 7, 'pdf')).toBe(pdf);
  });
});
