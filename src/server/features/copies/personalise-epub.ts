import { zipSync, type Zippable } from 'fflate';
import { DC_NS, elementLike, lastElement, placeAfter } from '../../platform/storage/epub-package';
import { type Entries, dcValue, manifestItems, packagePath, parsePackage, resolveHref, serializePackage, spineRefs, utf8 } from './epub-container';
import { escapeMarkup } from '../../platform/http/markup';

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

/**
 * Adds the mark to the body's classes: invisible to the reader, kept by every editor and converter.
 *
 * This one stays a text edit of the opening <body> tag, unlike the package document: it changes one
 * attribute, and every other byte of the chapter stays as the publisher wrote it. Reading each chapter
 * into a DOM and writing it back would re-quote and re-escape the whole book, and a strict XML parser
 * refuses a chapter with an HTML entity (&nbsp;) that reading systems still show, leaving it unmarked.
 */
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
  const pkg = parsePackage(utf8(entries[opfPath]));
  if (!pkg) throw new Error('the master EPUB\'s package file is not well-formed XML');
  const { doc, metadata, manifest, spine: spineElement } = pkg;
  if (!metadata || !manifest) throw new Error('the master EPUB\'s package file has no metadata or manifest');
  const items = manifestItems(pkg);
  const byId = new Map(items.map((i) => [i.id, i]));
  const opfDir = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  // XML ids are unique across the whole document, not only among the manifest's items.
  const ids = new Set(Array.from(doc.getElementsByTagName('*'), (element) => element.getAttribute('id')));

  const id = uniqueName((c) => ids.has(c), 'ex-libris');
  const href = uniqueName((c) => Boolean(entries[opfDir + c]), 'ex-libris', '.xhtml');
  const stylesheet = items.find((i) => i.mediaType === 'text/css')?.href ?? null;
  const language = dcValue(pkg, 'language') ?? 'en';

  // Metadata: a second identifier naming this copy (the book's own unique-identifier is untouched). The
  // prefix is the one the document binds to Dublin Core; the serializer declares it where none is bound.
  const copyId = doc.createElementNS(DC_NS, `${metadata.lookupPrefix(DC_NS) ?? 'dc'}:identifier`);
  copyId.setAttribute('id', uniqueName((c) => ids.has(c), 'copy-id'));
  copyId.appendChild(doc.createTextNode(`urn:copy:${stamp.fingerprint}`));
  placeAfter(copyId, metadata, lastElement(metadata));

  placeAfter(elementLike(manifest, 'item', { id, href, 'media-type': 'application/xhtml+xml' }), manifest, lastElement(manifest));

  // Spine: right after the cover page when the book opens with one, else first.
  const spine = spineRefs(pkg);
  if (!spineElement || !spine[0]) throw new Error('the master EPUB has no spine');
  const coverImage = items.find((i) => i.properties.split(/\s+/).includes('cover-image'));
  const isCover = (idref: string) => {
    const item = byId.get(idref);
    if (!item) return false;
    if (/cover/i.test(item.id) || /cover/i.test(item.href)) return true;
    const page = entries[resolveHref(opfPath, item.href)];
    return Boolean(coverImage && page && utf8(page).includes(coverImage.href.split('/').pop()!));
  };
  const cover = spine.slice(0, 2).find((ref) => isCover(ref.idref));
  placeAfter(elementLike(spineElement, 'itemref', { idref: id }), spineElement, cover?.element ?? null);
  const opf = serializePackage(pkg);

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
