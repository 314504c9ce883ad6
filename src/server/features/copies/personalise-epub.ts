import { zipSync, type Zippable } from 'fflate';
import { type Entries, dcValue, manifestItems, packagePath, resolveHref, spineRefs, utf8 } from './epub-container';
import { escapeMarkup } from '../../platform/markup';

/** Who a copy belongs to, as printed on the ex-libris page and the PDF's footer line. */
export interface CopyStamp {
  fingerprint: string;
  ownerName: string;
  purchasedAt: Date;
  orderReference: string;
  /** A claimed gift: who gave it and their message, printed as a dedication. */
  gift?: { from: string; message: string | null } | null;
}

/** Fixed archive timestamps, so the same inputs always give the same bytes. */
const ZIP_TIME = new Date('2026-01-01T00:00:00Z');

export const formatPurchaseDate = (date: Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);

function giftLines(stamp: CopyStamp): string {
  if (!stamp.gift) return '';
  const message = stamp.gift.message
    ? `\n<p class="dedication">${stamp.gift.message.split(/\r?\n/).map(escapeMarkup).join('<br/>')}</p>`
    : '';
  return `\n<p class="gift">A gift from ${escapeMarkup(stamp.gift.from)}</p>${message}`;
}

function exLibrisPage(stamp: CopyStamp, language: string, stylesheetHref: string | null): string {
  const lang = escapeMarkup(language);
  const css = stylesheetHref ? `\n<link rel="stylesheet" type="text/css" href="${escapeMarkup(stylesheetHref)}"/>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
<head>
<meta charset="UTF-8"/>
<title>Ex libris</title>${css}
<style>
.ex-libris { margin: 30% 10% 0; text-align: center; }
.ex-libris .label { font-variant: small-caps; letter-spacing: 0.2em; margin-bottom: 2em; }
.ex-libris .owner { font-size: 1.3em; margin: 0 0 1.5em; }
.ex-libris .details { font-size: 0.85em; }
.ex-libris .gift { margin: 2em 0 0.5em; font-style: italic; }
.ex-libris .dedication { margin: 0 0 1.5em; font-style: italic; }
</style>
</head>
<body class="${stamp.fingerprint}" epub:type="frontmatter">
<section class="ex-libris" epub:type="colophon" aria-label="Ex libris">
<p class="label">Ex libris</p>
<p class="owner">This copy belongs to ${escapeMarkup(stamp.ownerName)}</p>${giftLines(stamp)}
<p class="details">Purchased ${formatPurchaseDate(stamp.purchasedAt)} · Order ${escapeMarkup(stamp.orderReference)}</p>
</section>
</body>
</html>
`;
}

/** Adds the mark to the body's classes: invisible to the reader, kept by every editor and converter. */
function markBody(xhtml: string, fingerprint: string): string {
  return xhtml.replace(/<body\b([^>]*)>/, (tag, attrs: string) => {
    const cls = /\sclass\s*=\s*(["'])(.*?)\1/.exec(attrs);
    // A function replacer, so a `$` in the book's own class names stays literal.
    if (cls) return tag.replace(cls[0], () => ` class=${cls[1]}${cls[2]} ${fingerprint}${cls[1]}`);
    return `<body${attrs} class="${fingerprint}">`;
  });
}

function uniqueName(taken: (candidate: string) => boolean, base: string, suffix = ''): string {
  if (!taken(base + suffix)) return base + suffix;
  for (let i = 2; ; i += 1) if (!taken(`${base}-${i}${suffix}`)) return `${base}-${i}${suffix}`;
}

/**
 * The buyer's own EPUB: an ex-libris page right after the cover, and the fingerprint in the package metadata
 * and on the body of every content document, so the copy is still traceable with the ex-libris page removed.
 * `mimetype` stays the first, stored entry. `entries` are the master's files (see readStoredEpub).
 */
export function personaliseEpub(entries: Entries, stamp: CopyStamp): Buffer {
  const opfPath = packagePath(entries);
  if (!opfPath || !entries[opfPath]) throw new Error('the master EPUB has no package file');
  let opf = utf8(entries[opfPath]);
  const items = manifestItems(opf);
  const byId = new Map(items.map((i) => [i.id, i]));
  const opfDir = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';

  const id = uniqueName((c) => byId.has(c), 'ex-libris');
  const href = uniqueName((c) => Boolean(entries[opfDir + c]), 'ex-libris', '.xhtml');
  const stylesheet = items.find((i) => i.mediaType === 'text/css')?.href ?? null;
  const language = dcValue(opf, 'language') ?? 'en';

  // Metadata: a second identifier naming this copy (the book's own unique-identifier is untouched).
  opf = opf.replace(/<\/(\w+:)?metadata>/, (close) => `  <dc:identifier id="copy-id">urn:copy:${stamp.fingerprint}</dc:identifier>\n  ${close}`);
  opf = opf.replace(/<\/(\w+:)?manifest>/, (close) => `  <item id="${id}" href="${href}" media-type="application/xhtml+xml"/>\n  ${close}`);

  // Spine: right after the cover page when the book opens with one, else first.
  const spine = spineRefs(opf);
  const coverImage = items.find((i) => i.properties.split(/\s+/).includes('cover-image'));
  const isCover = (idref: string) => {
    const item = byId.get(idref);
    if (!item) return false;
    if (/cover/i.test(item.id) || /cover/i.test(item.href)) return true;
    const doc = entries[resolveHref(opfPath, item.href)];
    return Boolean(coverImage && doc && utf8(doc).includes(coverImage.href.split('/').pop()!));
  };
  const cover = spine.slice(0, 2).find((ref) => isCover(ref.idref));
  const itemref = `<itemref idref="${id}"/>`;
  if (cover) opf = `${opf.slice(0, cover.index + cover.tag.length)}\n    ${itemref}${opf.slice(cover.index + cover.tag.length)}`;
  else if (spine[0]) opf = `${opf.slice(0, spine[0].index)}${itemref}\n    ${opf.slice(spine[0].index)}`;
  else throw new Error('the master EPUB has no spine');

  const out: Zippable = { mimetype: [new TextEncoder().encode('application/epub+zip'), { level: 0 }] };
  const contentDocs = new Set(
    items.filter((i) => i.mediaType === 'application/xhtml+xml' && !i.properties.includes('nav')).map((i) => resolveHref(opfPath, i.href)),
  );
  for (const [name, data] of Object.entries(entries)) {
    if (name === 'mimetype') continue;
    if (name === opfPath) out[name] = new TextEncoder().encode(opf);
    else if (contentDocs.has(name)) out[name] = new TextEncoder().encode(markBody(utf8(data), stamp.fingerprint));
    else out[name] = data;
    if (name === opfPath) out[opfDir + href] = new TextEncoder().encode(exLibrisPage(stamp, language, stylesheet && relativeTo(opfDir + href, resolveHref(opfPath, stylesheet))));
  }
  return Buffer.from(zipSync(out, { level: 6, mtime: ZIP_TIME }));
}

/** `to` as an href relative to the folder of `from` (both zip entry names). */
function relativeTo(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  while (fromParts.length && toParts.length > 1 && fromParts[0] === toParts[0]) {
    fromParts.shift();
    toParts.shift();
  }
  return [...fromParts.map(() => '..'), ...toParts].join('/');
}
