#!/usr/bin/env node
// Builds the PDF reading sample for "What We Owe the Dead" (Chapter One).
//
//   node scripts/make-sample-pdf.mjs
//
// Node built-ins only. The PDF objects are written by hand using the standard
// base-14 fonts (Times-Roman, Times-Italic, Helvetica) with WinAnsiEncoding;
// text is measured with the fonts' standard metrics so the body can be fully
// justified, and the cross-reference table is computed from real byte offsets.
// No timestamps vary between runs, so the output is reproducible.

import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { readExcerpt } from './read-excerpt.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(root, 'src/server/db/seed/files/what-we-owe-the-dead-sample.pdf');

// ---------------------------------------------------------------------------
// Source text (single source: the seed content module)
// ---------------------------------------------------------------------------


// ---------------------------------------------------------------------------
// Encoding and font metrics (standard AFM widths, 1/1000 em)
// ---------------------------------------------------------------------------

const WIN_ANSI = new Map([
  ['‘', 0x91], ['’', 0x92], ['“', 0x93], ['”', 0x94], ['–', 0x96], ['—', 0x97],
  ['…', 0x85], ['•', 0x95], ['£', 0xa3], ['©', 0xa9], ['·', 0xb7], ['é', 0xe9],
]);

function toWinAnsi(str) {
  const out = [];
  for (const ch of str) {
    const code = ch.codePointAt(0);
    if (code >= 0x20 && code < 0x7f) out.push(code);
    else if (WIN_ANSI.has(ch)) out.push(WIN_ANSI.get(ch));
    else throw new Error(`character not in WinAnsiEncoding: ${JSON.stringify(ch)}`);
  }
  return out;
}

function widthTable(ascii, extra) {
  const t = new Map();
  const chars = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
  [...chars].forEach((c, i) => t.set(c.charCodeAt(0), ascii[i]));
  for (const [ch, w] of Object.entries(extra)) t.set(WIN_ANSI.get(ch), w);
  return t;
}

const TIMES_ROMAN = widthTable(
  [250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278,
    500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444,
    921, 722, 667, 667, 722, 611, 556, 722, 722, 333, 389, 722, 611, 889, 722, 722,
    556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333, 278, 333, 469, 500,
    333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500,
    500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541],
  { '‘': 333, '’': 333, '“': 444, '”': 444, '–': 500, '—': 1000, '…': 1000, '•': 350, '£': 500, '©': 760, '·': 250, 'é': 444 },
);

const TIMES_ITALIC = widthTable(
  [250, 333, 420, 500, 500, 833, 778, 214, 333, 333, 500, 675, 250, 333, 250, 278,
    500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 333, 333, 675, 675, 675, 500,
    920, 611, 611, 667, 722, 611, 611, 722, 722, 333, 444, 667, 556, 833, 667, 722,
    611, 722, 611, 500, 556, 722, 611, 833, 611, 556, 556, 389, 278, 389, 422, 500,
    333, 500, 500, 444, 500, 444, 278, 500, 500, 278, 278, 444, 278, 722, 500, 500,
    500, 500, 389, 389, 278, 500, 444, 667, 444, 444, 389, 400, 275, 400, 541],
  { '‘': 333, '’': 333, '“': 556, '”': 556, '–': 500, '—': 889, '…': 889, '•': 350, '£': 500, '©': 760, '·': 250, 'é': 444 },
);

const HELVETICA = widthTable(
  [278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584],
  { '‘': 222, '’': 222, '“': 333, '”': 333, '–': 556, '—': 1000, '…': 1000, '•': 350, '£': 556, '©': 737, '·': 278, 'é': 556 },
);

const FONTS = {
  F1: { base: 'Times-Roman', widths: TIMES_ROMAN },
  F2: { base: 'Times-Italic', widths: TIMES_ITALIC },
  F3: { base: 'Helvetica', widths: HELVETICA },
};

function textWidth(str, font, size, tracking = 0) {
  const codes = toWinAnsi(str);
  const w = FONTS[font].widths;
  let sum = 0;
  for (const c of codes) sum += w.get(c) ?? 500;
  return (sum * size) / 1000 + tracking * Math.max(0, codes.length - 1);
}

function pdfString(str) {
  let s = '(';
  for (const c of toWinAnsi(str)) {
    if (c === 0x28 || c === 0x29 || c === 0x5c) s += '\\' + String.fromCharCode(c);
    else if (c < 0x20 || c > 0x7e) s += '\\' + c.toString(8).padStart(3, '0');
    else s += String.fromCharCode(c);
  }
  return s + ')';
}

const n = (v) => (Math.round(v * 100) / 100).toString();

// ---------------------------------------------------------------------------
// Layout (A4)
// ---------------------------------------------------------------------------

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN_X = 78;
const BODY_W = PAGE_W - 2 * MARGIN_X;
const BODY_SIZE = 11.5;
const LEADING = 16.6;
const INDENT = 17;
const TOP_Y = PAGE_H - 86;
const BOTTOM_Y = 78;
const RED = '0.635 0.067 0.106';
const INK = '0.1 0.1 0.12';
const GREY = '0.42 0.42 0.45';

class Page {
  constructor() {
    this.ops = [];
  }
  text(str, x, y, font, size, { tracking = 0, colour = INK } = {}) {
    this.ops.push(
      `BT ${colour} rg /${font} ${n(size)} Tf ${n(tracking)} Tc 1 0 0 1 ${n(x)} ${n(y)} Tm ${pdfString(str)} Tj ET`,
    );
  }
  centred(str, y, font, size, opts = {}) {
    const w = textWidth(str, font, size, opts.tracking ?? 0);
    this.text(str, (PAGE_W - w) / 2, y, font, size, opts);
  }
  rule(x1, x2, y, width = 1, colour = RED) {
    this.ops.push(`${colour} RG ${n(width)} w ${n(x1)} ${n(y)} m ${n(x2)} ${n(y)} l S`);
  }
}

/** Splits a paragraph into styled words; the chapter opening is set in small capitals. */
function styledWords(text, smallCapsLead) {
  const words = text.split(/\s+/).filter(Boolean);
  return words.map((w, i) =>
    i < smallCapsLead ? { text: w.toUpperCase(), font: 'F1', size: BODY_SIZE * 0.82, tracking: 0.6 } : { text: w, font: 'F1', size: BODY_SIZE, tracking: 0 },
  );
}

function wordWidth(w) {
  return textWidth(w.text, w.font, w.size, w.tracking);
}

/** Greedy line breaking; returns [{ words, indent, last }]. */
function breakParagraph(words, firstIndent) {
  const space = textWidth(' ', 'F1', BODY_SIZE);
  const lines = [];
  let cur = [];
  let curW = 0;
  let indent = firstIndent;
  for (const w of words) {
    const ww = wordWidth(w);
    const avail = BODY_W - indent;
    const next = cur.length ? curW + space + ww : ww;
    if (cur.length && next > avail) {
      lines.push({ words: cur, indent, last: false });
      cur = [w];
      curW = ww;
      indent = 0;
    } else {
      cur.push(w);
      curW = next;
    }
  }
  if (cur.length) lines.push({ words: cur, indent, last: true });
  return lines;
}

function renderLine(page, line, y) {
  const space = textWidth(' ', 'F1', BODY_SIZE);
  const widths = line.words.map(wordWidth);
  const total = widths.reduce((a, b) => a + b, 0);
  const gaps = line.words.length - 1;
  let gap = space;
  if (!line.last && gaps > 0) gap = (BODY_W - line.indent - total) / gaps;
  let x = MARGIN_X + line.indent;
  line.words.forEach((w, i) => {
    page.text(w.text, x, y, w.font, w.size, { tracking: w.tracking });
    x += widths[i] + gap;
  });
}

function build() {
  const { title: exTitle, chapter, paragraphs } = readExcerpt();
  const pages = [];
  let page = new Page();
  pages.push(page);

  // Opening page furniture
  page.centred('READING SAMPLE', PAGE_H - 70, 'F3', 7.5, { tracking: 2.6, colour: GREY });
  page.centred('WHAT WE OWE THE DEAD', PAGE_H - 128, 'F1', 25, { tracking: 1.6 });
  page.centred('CALLUM REYES', PAGE_H - 154, 'F3', 9.5, { tracking: 3.4 });
  page.rule(PAGE_W / 2 - 26, PAGE_W / 2 + 26, PAGE_H - 176, 1.3);
  page.centred(chapter.toUpperCase(), PAGE_H - 222, 'F3', 8.5, { tracking: 2.8, colour: GREY });
  page.centred(exTitle, PAGE_H - 248, 'F2', 20);

  let y = PAGE_H - 300;
  const newPage = () => {
    page = new Page();
    pages.push(page);
    y = TOP_Y - 14;
  };

  paragraphs.forEach((para, pi) => {
    const lines = breakParagraph(styledWords(para, pi === 0 ? 3 : 0), pi === 0 ? 0 : INDENT);
    lines.forEach((line, li) => {
      // avoid a lone first line at the foot of a page
      const remaining = lines.length - li;
      if (y < BOTTOM_Y || (li === 0 && remaining > 1 && y - LEADING < BOTTOM_Y)) newPage();
      renderLine(page, line, y);
      y -= LEADING;
    });
  });

  // Closing note
  y -= LEADING * 1.6;
  if (y < BOTTOM_Y + 70) newPage();
  page.rule(PAGE_W / 2 - 18, PAGE_W / 2 + 18, y + 6, 1);
  y -= LEADING * 1.4;
  page.centred('What We Owe the Dead is available in hardcover, paperback, ebook and audiobook.', y, 'F2', 10.5, { colour: GREY });
  y -= LEADING;
  page.centred('Published by Harrow & Vane, 2026.', y, 'F2', 10.5, { colour: GREY });
  y -= LEADING * 1.8;
  page.centred('Copyright © 2026 Callum Reyes. All rights reserved.', y, 'F3', 7.5, { colour: GREY, tracking: 0.3 });

  // Running heads and folios
  pages.forEach((p, i) => {
    if (i > 0) {
      p.centred('WHAT WE OWE THE DEAD', PAGE_H - 58, 'F3', 7, { tracking: 2.6, colour: GREY });
    }
    p.centred(String(i + 1), 46, 'F1', 9.5, { colour: GREY });
  });
  return pages;
}

// ---------------------------------------------------------------------------
// PDF serialisation
// ---------------------------------------------------------------------------

function serialise(pages) {
  const objects = []; // index = object number - 1; each is a Buffer
  const add = (body) => {
    objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
    return objects.length;
  };
  const reserve = () => {
    objects.push(null);
    return objects.length;
  };
  const set = (num, body) => {
    objects[num - 1] = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  };
  const stream = (content) => {
    const data = deflateSync(Buffer.from(content, 'latin1'), { level: 9 });
    return Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  };

  const catalog = reserve();
  const pagesObj = reserve();
  const fontObjs = Object.entries(FONTS).map(([name, f]) => [
    name,
    add(`<< /Type /Font /Subtype /Type1 /BaseFont /${f.base} /Encoding /WinAnsiEncoding >>`),
  ]);
  const fontDict = fontObjs.map(([name, num]) => `/${name} ${num} 0 R`).join(' ');

  const kids = [];
  for (const p of pages) {
    const contents = add(stream(p.ops.join('\n') + '\n'));
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
          `/Resources << /Font << ${fontDict} >> /ProcSet [/PDF /Text] >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  set(pagesObj, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  set(catalog, `<< /Type /Catalog /Pages ${pagesObj} 0 R /Lang (en-GB) /PageLayout /SinglePage >>`);
  const info = add(
    '<< /Title (What We Owe the Dead \\204 Reading Sample) /Author (Callum Reyes) ' +
      '/Subject (Chapter One: The Return) /Keywords (thriller, family, brothers, reading sample) ' +
      '/Producer (Harrow & Vane) /CreationDate (D:20260101000000Z) /ModDate (D:20260101000000Z) >>',
  );

  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0].length;
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xrefStart = offset;
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${String(o).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xrefStart}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}

const pages = build();
const pdf = serialise(pages);
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, pdf);
console.log(`wrote ${OUT.slice(root.length + 1)} (${pages.length} pages, ${pdf.length} bytes)`);
