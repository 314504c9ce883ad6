import { describe, expect, it } from 'vitest';
import { attachmentDisposition, readerFileName } from './download-link';

describe("a reader's file is named after the book", () => {
  it("takes the book's title and the upload's extension, never the upload's name", () => {
    expect(readerFileName('What We Owe the Dead', 'ebook', 'callum-final-draft-v7 (2).EPUB')).toBe('What We Owe the Dead.epub');
    expect(readerFileName('What We Owe the Dead', 'audiobook', 'master_mix.m4a')).toBe('What We Owe the Dead.m4a');
    expect(readerFileName('What We Owe the Dead', 'pdf', 'no-extension')).toBe('What We Owe the Dead.pdf');
    // Characters a file system refuses become spaces; an empty title still names a file.
    expect(readerFileName('Blood: Brothers / Part "1"?', 'ebook', 'a.epub')).toBe('Blood Brothers Part 1.epub');
    expect(readerFileName('  ', 'ebook', 'a.epub')).toBe('Book.epub');
  });

  it('sends an ASCII name and the exact UTF-8 name (RFC 6266, RFC 5987)', () => {
    expect(attachmentDisposition('What We Owe the Dead.epub')).toBe(
      `attachment; filename="What We Owe the Dead.epub"; filename*=UTF-8''What%20We%20Owe%20the%20Dead.epub`,
    );
    expect(attachmentDisposition("Café d'Été (2e).epub")).toBe(
      `attachment; filename="Cafe d'Ete (2e).epub"; filename*=UTF-8''Caf%C3%A9%20d%27%C3%89t%C3%A9%20%282e%29.epub`,
    );
    expect(attachmentDisposition('血の絆.epub')).toBe(`attachment; filename="book.epub"; filename*=UTF-8''%E8%A1%80%E3%81%AE%E7%B5%86.epub`);
  });
});
