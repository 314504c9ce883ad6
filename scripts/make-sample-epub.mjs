#!/usr/bin/env node
// Builds the sample EPUB 3 for "What We Owe the Dead" (title page + Chapter One).
//
//   node scripts/make-sample-epub.mjs
//
// Uses Node built-ins only. The ZIP container is written by hand (deflate via
// node:zlib, CRC-32 computed here) with fixed timestamps, so the output is
// byte-for-byte reproducible. The chapter text is read from the seed content
// module so there is a single source for the excerpt.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { readExcerpt } from './read-excerpt.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COVER_SVG = resolve(root, 'public/images/covers/what-we-owe-the-dead-front.svg');
const OUT = resolve(root, 'src/server/db/seed/files/what-we-owe-the-dead.epub');

// ---------------------------------------------------------------------------
// Source text
// ---------------------------------------------------------------------------


const esc = (s) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// ---------------------------------------------------------------------------
// ZIP writer (stored + deflate, no data descriptors, fixed DOS timestamp)
// ---------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// 2026-01-01 00:00:00 in MS-DOS format.
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;

export function buildZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data, store } of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const raw = Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8');
    const method = store ? 0 : 8;
    const body = store ? raw : deflateRawSync(raw, { level: 9 });
    const crc = crc32(raw);

    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(store ? 10 : 20, 4); // version needed
    lh.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    lh.writeUInt16LE(method, 8);
    lh.writeUInt16LE(DOS_TIME, 10);
    lh.writeUInt16LE(DOS_DATE, 12);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(raw.length, 22);
    lh.writeUInt16LE(nameBuf.length, 26);
    lh.writeUInt16LE(0, 28); // no extra field
    locals.push(lh, nameBuf, body);

    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4); // version made by (MS-DOS, 2.0)
    ch.writeUInt16LE(store ? 10 : 20, 6);
    ch.writeUInt16LE(0x0800, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt16LE(DOS_TIME, 12);
    ch.writeUInt16LE(DOS_DATE, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(raw.length, 24);
    ch.writeUInt16LE(nameBuf.length, 28);
    ch.writeUInt16LE(0, 30); // extra
    ch.writeUInt16LE(0, 32); // comment
    ch.writeUInt16LE(0, 34); // disk
    ch.writeUInt16LE(0, 36); // internal attrs
    ch.writeUInt32LE(0, 38); // external attrs
    ch.writeUInt32LE(offset, 42);
    centrals.push(ch, nameBuf);

    offset += lh.length + nameBuf.length + body.length;
  }
  const central = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(0, 4);
  eocd.writeUInt16LE(0, 6);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(central.length, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, central, eocd]);
}

// ---------------------------------------------------------------------------
// EPUB parts
// ---------------------------------------------------------------------------

const BOOK = {
  title: 'What We Owe the Dead',
  author: 'Callum Reyes',
  authorFileAs: 'Reyes, Callum',
  publisher: 'Harrow & Vane',
  year: '2026',
  tagline: 'Blood makes you brothers. Loyalty makes you family. Betrayal makes you enemies.',
  identifier: 'urn:uuid:6f1d2c8e-4b7a-4e21-9c3d-2a6b5e8f0d17',
  modified: '2026-01-01T00:00:00Z',
};

const xhtml = (title, body, extraHead = '') => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en-GB" lang="en-GB">
<head>
<meta charset="UTF-8"/>
<title>${esc(title)}</title>
<link rel="stylesheet" type="text/css" href="styles.css"/>${extraHead}
</head>
${body}
</html>
`;

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

const STYLES = `@charset "UTF-8";
body { font-family: Georgia, "Times New Roman", serif; line-height: 1.5; margin: 0 5%; color: #1a1a1a; }
h1, h2, h3 { font-weight: normal; text-align: center; }
.cover { margin: 0; padding: 0; text-align: center; }
.cover img { max-width: 100%; height: 100%; }
.titlepage { text-align: center; margin-top: 18%; }
.titlepage h1 { font-size: 2.1em; letter-spacing: 0.08em; text-transform: uppercase; margin: 0 0 0.4em; }
.titlepage .author { font-size: 1.1em; letter-spacing: 0.3em; text-transform: uppercase; margin: 0 0 2.5em; }
.titlepage .tagline { font-style: italic; margin: 0 0 3em; }
.titlepage .rule { width: 3em; margin: 1.5em auto; border: 0; border-top: 2px solid #9e111a; }
.titlepage .publisher { font-size: 0.85em; letter-spacing: 0.2em; text-transform: uppercase; }
.titlepage .note { font-size: 0.8em; margin-top: 3em; color: #555; }
.chapter-number { font-size: 0.85em; letter-spacing: 0.3em; text-transform: uppercase; margin-top: 3em; margin-bottom: 0.3em; }
.chapter-title { font-size: 1.6em; margin-top: 0; margin-bottom: 2em; }
p { margin: 0; text-indent: 1.5em; text-align: justify; }
p.first { text-indent: 0; }
p.first .lead { font-variant: small-caps; letter-spacing: 0.05em; }
p.end { margin-top: 2.5em; text-indent: 0; text-align: center; font-style: italic; font-size: 0.9em; }
`;

function buildEpub() {
  const { title: exTitle, chapter, paragraphs } = readExcerpt();
  const cover = readFileSync(COVER_SVG);

  const coverPage = xhtml(
    BOOK.title,
    `<body class="cover" epub:type="cover">
<section>
<img src="images/cover.svg" alt="${esc(`${BOOK.title} by ${BOOK.author}`)}"/>
</section>
</body>`,
  );

  const titlePage = xhtml(
    BOOK.title,
    `<body epub:type="frontmatter">
<section class="titlepage" epub:type="titlepage">
<h1>${esc(BOOK.title)}</h1>
<p class="author">${esc(BOOK.author)}</p>
<p class="tagline">${esc(BOOK.tagline)}</p>
<hr class="rule"/>
<p class="publisher">${esc(BOOK.publisher)} · ${BOOK.year}</p>
<p class="note">Reading sample. Copyright © ${BOOK.year} ${esc(BOOK.author)}. All rights reserved.</p>
</section>
</body>`,
  );

  const paras = paragraphs
    .map((p, i) => {
      if (i === 0) {
        const words = p.split(' ');
        const lead = words.slice(0, 3).join(' ');
        return `<p class="first"><span class="lead">${esc(lead)}</span> ${esc(words.slice(3).join(' '))}</p>`;
      }
      return `<p>${esc(p)}</p>`;
    })
    .join('\n');

  const chapterPage = xhtml(
    `${chapter}: ${exTitle}`,
    `<body epub:type="bodymatter">
<section epub:type="chapter" aria-labelledby="ch1">
<h2 class="chapter-number">${esc(chapter)}</h2>
<h3 class="chapter-title" id="ch1">${esc(exTitle)}</h3>
${paras}
<p class="end">${esc(BOOK.title)} is available in hardcover, paperback, ebook and audiobook.</p>
</section>
</body>`,
  );

  const nav = xhtml(
    'Contents',
    `<body>
<nav epub:type="toc" id="toc">
<h2>Contents</h2>
<ol>
<li><a href="title.xhtml">${esc(BOOK.title)}</a></li>
<li><a href="chapter-01.xhtml">${esc(`${chapter}: ${exTitle}`)}</a></li>
</ol>
</nav>
<nav epub:type="landmarks" id="landmarks" hidden="hidden">
<ol>
<li><a epub:type="cover" href="cover.xhtml">Cover</a></li>
<li><a epub:type="titlepage" href="title.xhtml">Title page</a></li>
<li><a epub:type="bodymatter" href="chapter-01.xhtml">Start of content</a></li>
</ol>
</nav>
</body>`,
  );

  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid" xml:lang="en-GB">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="bookid">${BOOK.identifier}</dc:identifier>
    <dc:title>${esc(BOOK.title)}</dc:title>
    <dc:language>en-GB</dc:language>
    <dc:creator id="creator">${esc(BOOK.author)}</dc:creator>
    <meta refines="#creator" property="role" scheme="marc:relators">aut</meta>
    <meta refines="#creator" property="file-as">${esc(BOOK.authorFileAs)}</meta>
    <dc:publisher>${esc(BOOK.publisher)}</dc:publisher>
    <dc:date>${BOOK.year}</dc:date>
    <dc:description>${esc(`Reading sample: ${chapter}, “${exTitle}”. ${BOOK.tagline}`)}</dc:description>
    <dc:rights>Copyright © ${BOOK.year} ${esc(BOOK.author)}. All rights reserved.</dc:rights>
    <meta property="dcterms:modified">${BOOK.modified}</meta>
    <meta name="cover" content="cover-image"/>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="css" href="styles.css" media-type="text/css"/>
    <item id="cover-image" href="images/cover.svg" media-type="image/svg+xml" properties="cover-image"/>
    <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="title" href="title.xhtml" media-type="application/xhtml+xml"/>
    <item id="chapter-01" href="chapter-01.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine>
    <itemref idref="cover" linear="no"/>
    <itemref idref="title"/>
    <itemref idref="nav" linear="no"/>
    <itemref idref="chapter-01"/>
  </spine>
</package>
`;

  return buildZip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OEBPS/content.opf', data: opf },
    { name: 'OEBPS/nav.xhtml', data: nav },
    { name: 'OEBPS/styles.css', data: STYLES },
    { name: 'OEBPS/cover.xhtml', data: coverPage },
    { name: 'OEBPS/images/cover.svg', data: cover },
    { name: 'OEBPS/title.xhtml', data: titlePage },
    { name: 'OEBPS/chapter-01.xhtml', data: chapterPage },
  ]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const buf = buildEpub();
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, buf);
  console.log(`wrote ${OUT.slice(root.length + 1)} (${buf.length} bytes)`);
}
