#!/usr/bin/env node
// Builds the sample EPUB 3 for "What We Owe the Dead" (title page + Chapter One).
//
//   node scripts/make-sample-epub.mjs
//
// The ZIP container is written with fflate (the archive library the server
// uses) with fixed timestamps, so the output is byte-for-byte reproducible.
// The chapter text is read from the seed content module so there is a single
// source for the excerpt.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
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
// ZIP container
// ---------------------------------------------------------------------------

// Local midnight: fflate writes the DOS timestamps in local time, so this gives the same bytes in every
// time zone.
const ZIP_TIME = new Date(2026, 0, 1);

/** Entries in archive order; `store` keeps one uncompressed (an EPUB's `mimetype` must be). */
export function buildZip(entries) {
  const files = {};
  for (const { name, data, store } of entries) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    files[name] = store ? [bytes, { level: 0 }] : bytes;
  }
  return Buffer.from(zipSync(files, { level: 9, mtime: ZIP_TIME }));
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
