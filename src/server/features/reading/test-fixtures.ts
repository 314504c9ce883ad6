/**
 * Books with several chapters on both sides, for the read <-> listen tests: an EPUB 3 written here, and the
 * seeded audio sample with chapter marks of our choosing written into its ID3v2.3 tag (CTOC + CHAP frames,
 * as scripts/add-audio-chapters.mjs writes them; the audio frames are left as they are).
 */
import fs from 'node:fs';
import path from 'node:path';
import { seedFilesDir } from '../../platform/operations/seed';
import type { TestAgent } from '../../test/helpers';
import { zipSync } from 'fflate';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB" xml:lang="en-GB"><head><meta charset="UTF-8"/><title>${escape(title)}</title></head><body>${body}</body></html>`;

/** An EPUB whose spine is a title page and then one file per chapter, each named in the contents. */
export function chapteredEpub(titles: string[], options: { bookTitle?: string; paragraphs?: number } = {}): Buffer {
  const bookTitle = options.bookTitle ?? 'A Book in Chapters';
  const paragraphs = options.paragraphs ?? 2;
  const chapters = titles.map((title, i) => ({
    id: `ch${i + 1}`,
    file: `chapter-${i + 1}.xhtml`,
    html: xhtml(
      title,
      `<section epub:type="chapter"><h1>${escape(title)}</h1>` +
        Array.from({ length: paragraphs }, (_, p) => `<p>Paragraph ${p + 1} of ${escape(title.toLowerCase())}: the tide came in over the harbour wall.</p>`).join('') +
        '</section>',
    ),
  }));
  const nav = xhtml(
    'Contents',
    `<nav epub:type="toc" id="toc"><h2>Contents</h2><ol><li><a href="title.xhtml">${escape(bookTitle)}</a></li>${chapters
      .map((c, i) => `<li><a href="${c.file}">${escape(titles[i])}</a></li>`)
      .join('')}</ol></nav>`,
  );
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid" xml:lang="en-GB">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="bookid">urn:uuid:1b0f6a52-5d0e-4c1a-9f7e-3c2d1e0f9a88</dc:identifier>
<dc:title>${escape(bookTitle)}</dc:title><dc:language>en-GB</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="title" href="title.xhtml" media-type="application/xhtml+xml"/>
${chapters.map((c) => `<item id="${c.id}" href="${c.file}" media-type="application/xhtml+xml"/>`).join('\n')}</manifest>
<spine><itemref idref="title"/>${chapters.map((c) => `<itemref idref="${c.id}"/>`).join('')}</spine></package>`;
  return Buffer.from(
    zipSync(
      {
        mimetype: [Buffer.from('application/epub+zip'), { level: 0 }],
        'META-INF/container.xml': Buffer.from(
          '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
        ),
        'OEBPS/content.opf': Buffer.from(opf),
        'OEBPS/nav.xhtml': Buffer.from(nav),
        'OEBPS/title.xhtml': Buffer.from(xhtml(bookTitle, `<h1>${escape(bookTitle)}</h1>`)),
        ...Object.fromEntries(chapters.map((c) => [`OEBPS/${c.file}`, Buffer.from(c.html)])),
      },
      { level: 9 },
    ),
  );
}

const syncsafe = (buf: Buffer, at: number) => (buf[at] << 21) | (buf[at + 1] << 14) | (buf[at + 2] << 7) | buf[at + 3];
const toSyncsafe = (n: number) => Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);

function frame(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}
const latin1z = (s: string) => Buffer.concat([Buffer.from(s, 'latin1'), Buffer.from([0])]);
const textFrame = (id: string, s: string) => frame(id, Buffer.concat([Buffer.from([0]), Buffer.from(s, 'latin1')]));

/** The seeded audio sample's length: the last chapter ends there. */
export const SAMPLE_AUDIO_MS = 27324;

/** The seeded audio sample with these chapter marks (start times in seconds) instead of its own. */
export function chapteredMp3(chapters: Array<{ title: string; start: number }>): Buffer {
  const file = fs.readFileSync(path.join(seedFilesDir(), 'what-we-owe-the-dead-audio-sample.mp3'));
  const tagEnd = 10 + syncsafe(file, 6);
  const kept: Buffer[] = [];
  for (let at = 10; at + 10 <= tagEnd && file[at] !== 0; ) {
    const id = file.subarray(at, at + 4).toString('latin1');
    const size = file.readUInt32BE(at + 4);
    if (id !== 'CHAP' && id !== 'CTOC') kept.push(file.subarray(at, at + 10 + size));
    at += 10 + size;
  }
  const chaps = chapters.map((c, i) => {
    const times = Buffer.alloc(16);
    times.writeUInt32BE(Math.round(c.start * 1000), 0);
    times.writeUInt32BE(chapters[i + 1] ? Math.round(chapters[i + 1].start * 1000) : SAMPLE_AUDIO_MS, 4);
    times.writeUInt32BE(0xffffffff, 8);
    times.writeUInt32BE(0xffffffff, 12);
    return frame('CHAP', Buffer.concat([latin1z(`ch${i}`), times, textFrame('TIT2', c.title)]));
  });
  const toc = frame(
    'CTOC',
    Buffer.concat([latin1z('toc'), Buffer.from([0x03, chapters.length]), ...chapters.map((_, i) => latin1z(`ch${i}`)), textFrame('TIT2', 'Contents')]),
  );
  const frames = Buffer.concat([...kept, toc, ...chaps]);
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([3, 0, 0]), toSyncsafe(frames.length), frames, file.subarray(tagEnd)]);
}

const BOUNDARY = '----readListenFixtureBoundary';

/** Uploads a book's file through the admin API, as the files page does. */
export async function uploadBookFile(agent: TestAgent, bookId: number, format: 'ebook' | 'audiobook', fileName: string, data: Buffer) {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const res = await agent.request({
    method: 'PUT',
    url: `/api/admin/books/${bookId}/files/${format}`,
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  if (res.statusCode >= 300) throw new Error(`upload of ${fileName} failed: ${res.statusCode} ${res.body}`);
  return res;
}
