import path from 'node:path/posix';
import { SAMPLE_END_TEXT } from '@shared/schemas/reading';
import { type Zippable, zipSync } from 'fflate';
import type { ZipEntry as UnpackedEntry } from '../../platform/storage/zip';
import {
  type ManifestItem,
  OPF_NS,
  childElements,
  elementLike,
  lastElement,
  manifestItems,
  parsePackage,
  placeAfter,
  removeElement,
  rootfilePath,
  serializePackage,
  spineRefs,
} from '../../platform/storage/epub-package';
import { escapeMarkup, unescapeMarkup } from '../../platform/http/markup';

/** Local midnight, so the archive's DOS timestamps (kept in local time) are the same in every time zone. */
const ZIP_TIME = new Date(2026, 0, 1);

// Attributes of the XHTML pages' links (the package document is read as XML, see platform/storage/epub-package).
const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag)?.slice(1).find((v) => v !== undefined);

const textOf = (html: string) => unescapeMarkup(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
const isDocument = (item: ManifestItem) => /x?html/i.test(item.mediaType);

/** A chapter long enough to be worth a sample when nothing marks chapters. */
const MIN_CHAPTER_TEXT = 1500;

/**
 * Cuts a reading sample from a whole EPUB: everything up to and including its first chapter (the first
 * spine document marked as a chapter or as body matter, else the first one with real text), the
 * stylesheets, fonts and images those pages use, a fresh contents page, and a last page that invites the
 * reader to buy the book. Nothing after the cut is in the archive at all. `entries` are the book's files
 * (see readStoredZip).
 */
export function cutSampleEpub(entries: UnpackedEntry[], purchaseUrl: string): Buffer {
  const files = new Map(entries.map((e) => [e.name, e.data]));
  const container = files.get('META-INF/container.xml')?.toString('utf8') ?? '';
  const opfPath = rootfilePath(container);
  const opfData = opfPath ? files.get(opfPath) : undefined;
  const pkg = opfData ? parsePackage(opfData.toString('utf8')) : null;
  if (!opfPath || !pkg?.manifest || !pkg.spine) throw new Error('EPUB has no package document');
  const { manifest: manifestElement, spine: spineElement } = pkg;
  const base = path.dirname(opfPath) === '.' ? '' : path.dirname(opfPath);
  const full = (href: string) => path.normalize(path.join(base, decodeURIComponent(href.split('#')[0])));

  const manifest = manifestItems(pkg);
  const byId = new Map(manifest.map((m) => [m.id, m]));
  const spine = spineRefs(pkg).map((ref) => ({ item: byId.get(ref.idref), linear: ref.element.getAttribute('linear') !== 'no', ref }));
  const docText = (item: ManifestItem) => files.get(full(item.href))?.toString('utf8') ?? '';

  const linear = spine.filter((s) => s.linear && s.item && isDocument(s.item));
  const marked = linear.findIndex((s) => /epub:type\s*=\s*["'][^"']*\b(chapter|bodymatter)\b/i.test(docText(s.item!)));
  const substantial = linear.findIndex((s) => textOf(docText(s.item!)).length >= MIN_CHAPTER_TEXT);
  const cutAt = marked >= 0 ? marked : substantial >= 0 ? substantial : Math.min(1, linear.length - 1);
  if (cutAt < 0) throw new Error('EPUB has no readable pages');
  const navItem = manifest.find((m) => /\bnav\b/.test(m.properties));
  const keptDocs = new Set<ManifestItem>();
  for (const s of spine) {
    if (!s.item || !isDocument(s.item) || s.item === navItem) continue;
    if (s.linear && linear.indexOf(s) > cutAt) break;
    keptDocs.add(s.item);
  }

  // Resources the kept pages (and their stylesheets) point at; the cover image is kept for the shelf view.
  const keptPaths = new Set([...keptDocs].map((d) => full(d.href)));
  const references = (file: string) => {
    const text = files.get(file)?.toString('utf8') ?? '';
    const refs = [...text.matchAll(/(?:href|src|xlink:href)\s*=\s*["']([^"'#]+)|url\(\s*["']?([^"')#]+)/gi)];
    return refs.map((m) => path.normalize(path.join(path.dirname(file), decodeURIComponent(m[1] ?? m[2]))));
  };
  for (let pass = 0; pass < 2; pass += 1) {
    for (const file of [...keptPaths]) for (const ref of references(file)) if (files.has(ref)) keptPaths.add(ref);
  }
  const keptItems = manifest.filter(
    (m) => (keptPaths.has(full(m.href)) && (!isDocument(m) || keptDocs.has(m))) || /\bcover-image\b/.test(m.properties),
  );

  // A fresh contents page listing what is in the sample, with the original labels where there were any.
  const labels = new Map<string, string>();
  if (navItem) {
    const navPath = full(navItem.href);
    // Only the table of contents: landmarks and page lists name the same pages differently.
    const navText = docText(navItem);
    const toc = /<nav\b[^>]*epub:type\s*=\s*["'][^"']*\btoc\b[\s\S]*?<\/nav>/i.exec(navText)?.[0] ?? navText;
    for (const m of toc.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
      const href = attr(m[1], 'href');
      const file = href && path.normalize(path.join(path.dirname(navPath), decodeURIComponent(href.split('#')[0])));
      if (file && !labels.has(file)) labels.set(file, textOf(m[2]));
    }
  }
  const tocEntries = spine
    .filter((s) => s.linear && s.item && keptDocs.has(s.item))
    .map((s) => {
      const file = full(s.item!.href);
      const title = labels.get(file) ?? textOf(/<title>([\s\S]*?)<\/title>/i.exec(docText(s.item!))?.[1] ?? '');
      return title ? `<li><a href="${escapeMarkup(path.relative(base || '.', file))}">${escapeMarkup(title)}</a></li>` : '';
    })
    .filter(Boolean);
  const lang = pkg.doc.documentElement?.getAttribute('xml:lang') ?? 'en';
  const page = (title: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${escapeMarkup(lang)}" xml:lang="${escapeMarkup(lang)}">\n<head><meta charset="UTF-8"/><title>${escapeMarkup(title)}</title></head>\n${body}\n</html>\n`;
  const nav = page(
    'Contents',
    `<body><nav epub:type="toc" id="toc"><h2>Contents</h2><ol>\n${tocEntries.join('\n')}\n<li><a href="sample-end.xhtml">${SAMPLE_END_TEXT}</a></li>\n</ol></nav></body>`,
  );
  const end = page(
    SAMPLE_END_TEXT,
    `<body epub:type="backmatter"><section style="text-align:center;margin-top:20%">` +
      `<p style="text-indent:0">This is the end of the free sample.</p>` +
      `<h2><a href="${escapeMarkup(purchaseUrl)}">${SAMPLE_END_TEXT}</a></h2>` +
      `<p style="text-indent:0">Buy the book in hardcover, paperback, ebook or audiobook to read on.</p></section></body>`,
  );

  // The package document is edited in place: what the sample leaves out is taken out, the rest (comments,
  // metadata, the spine's reading direction) stays as the book wrote it.
  for (const item of manifest) {
    if (!keptItems.includes(item)) removeElement(item.element);
    else if (item.properties.split(/\s+/).includes('nav')) {
      const rest = item.properties.split(/\s+/).filter((x) => x && x !== 'nav').join(' ');
      if (rest) item.element.setAttribute('properties', rest);
      else item.element.removeAttribute('properties');
    }
  }
  const added: Array<Record<string, string>> = [
    { id: 'sample-nav', href: 'sample-nav.xhtml', 'media-type': 'application/xhtml+xml', properties: 'nav' },
    { id: 'sample-end', href: 'sample-end.xhtml', 'media-type': 'application/xhtml+xml' },
  ];
  for (const attributes of added) {
    placeAfter(elementLike(manifestElement, 'item', attributes), manifestElement, lastElement(manifestElement));
  }
  for (const s of spine) if (!s.item || !keptItems.includes(s.item)) removeElement(s.ref.element);
  placeAfter(elementLike(spineElement, 'itemref', { idref: 'sample-end' }), spineElement, lastElement(spineElement));
  // An EPUB 2 table of contents (the NCX) is not in the sample: the spine no longer names it.
  const ncx = spineElement.getAttribute('toc');
  if (ncx !== null && !keptItems.some((m) => m.id === ncx)) spineElement.removeAttribute('toc');
  // Landmarks and guides may point at pages that are no longer there.
  for (const guide of childElements(pkg.doc.documentElement, 'guide', OPF_NS)) removeElement(guide);
  const newOpf = serializePackage(pkg);

  const inBase = (name: string) => (base ? `${base}/${name}` : name);
  // Insertion order is archive order: `mimetype` first and stored, as EPUB readers require.
  const out: Zippable = {
    mimetype: [Buffer.from('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': Buffer.from(container),
    [opfPath]: Buffer.from(newOpf),
  };
  for (const item of keptItems) {
    const data = files.get(full(item.href));
    if (data) out[full(item.href)] = data;
  }
  out[inBase('sample-nav.xhtml')] = Buffer.from(nav);
  out[inBase('sample-end.xhtml')] = Buffer.from(end);
  return Buffer.from(zipSync(out, { level: 9, mtime: ZIP_TIME }));
}
