import type { DigitalFormat } from '@shared/constants';

export interface DetectedType {
  contentType: string;
  extension: string;
}

const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/**
 * What a file really is, judged by its first bytes rather than by the name or the Content-Type the
 * browser sent (both are the uploader's claim).
 */
export function detectType(head: Buffer): DetectedType | null {
  // EPUB (OCF): a zip whose first entry is a stored "mimetype" file holding application/epub+zip.
  if (ascii(head, 0, 4) === 'PK\u0003\u0004' && ascii(head, 30, 38) === 'mimetype' && ascii(head, 38, 58) === 'application/epub+zip') {
    return { contentType: 'application/epub+zip', extension: 'epub' };
  }
  if (ascii(head, 0, 5) === '%PDF-') return { contentType: 'application/pdf', extension: 'pdf' };
  // MP3: an ID3v2 tag, or straight into an MPEG audio frame (11 sync bits set, layer bits not 00).
  if (ascii(head, 0, 3) === 'ID3') return { contentType: 'audio/mpeg', extension: 'mp3' };
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0) {
    return { contentType: 'audio/mpeg', extension: 'mp3' };
  }
  // MPEG-4 audio (M4A/M4B): an ftyp box at offset 4.
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (['M4A ', 'M4B ', 'mp42', 'isom', 'mp41', 'dash'].includes(brand)) {
      return { contentType: 'audio/mp4', extension: brand === 'M4B ' ? 'm4b' : 'm4a' };
    }
  }
  return null;
}

/** Which detected types each format accepts. */
const ACCEPTS: Record<DigitalFormat, string[]> = {
  ebook: ['application/epub+zip'],
  pdf: ['application/pdf'],
  audiobook: ['audio/mpeg', 'audio/mp4'],
};

export const ACCEPT_LABEL: Record<DigitalFormat, string> = {
  ebook: 'an EPUB file',
  pdf: 'a PDF file',
  audiobook: 'an MP3 or M4A audio file',
};

export function acceptsType(format: DigitalFormat, contentType: string): boolean {
  return ACCEPTS[format].includes(contentType);
}

/** A storage-safe file name: the uploader's name, reduced to harmless characters. */
export function safeFileName(name: string, extension: string): string {
  const base = name
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${base || 'file'}.${extension}`;
}
