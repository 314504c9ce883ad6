import type { FileStore } from '../../platform/storage/files';
import { manifestItems, parsePackage, rootfilePath, spineRefs } from '../../platform/storage/epub-package';
import { type ZipEntry, readStoredZip, readZip as readBoundedZip } from '../../platform/storage/zip';

export { type ManifestItem, type PackageDocument, type SpineRef, dcValue, manifestItems, parsePackage, parseXml, serializePackage, spineRefs } from '../../platform/storage/epub-package';

export type Entries = Record<string, Uint8Array>;

const byName = (entries: ZipEntry[]): Entries => Object.fromEntries(entries.map((e) => [e.name, e.data]));

/**
 * Unzips an archive within the platform's zip limits (throws ZipRefused for a bomb, ZipDamaged for a broken
 * archive); entries keep the archive's order.
 */
export async function readZip(bytes: Buffer, wanted?: (name: string) => boolean): Promise<Entries> {
  return byName(await readBoundedZip(bytes, wanted));
}

/** A stored EPUB's files, the same way; a refused file is remembered and not read again. */
export async function readStoredEpub(files: FileStore, key: string): Promise<Entries> {
  return byName(await readStoredZip(files, key));
}

export const utf8 = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');

/** The OPF path named by META-INF/container.xml, or null. */
export function packagePath(entries: Entries): string | null {
  const container = entries['META-INF/container.xml'];
  return container ? rootfilePath(utf8(container)) : null;
}

/** Resolves a manifest href against the OPF's folder, as a zip entry name. */
export function resolveHref(opfPath: string, href: string): string {
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  let decoded = href.split('#')[0];
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // Keep the raw href; the caller reports it missing.
  }
  const parts: string[] = [];
  for (const part of (base + decoded).split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** A stored EPUB's spine in reading order: each chapter's manifest id and its path in the archive. */
export async function storedSpine(files: FileStore, key: string): Promise<Array<{ id: string; path: string }>> {
  const entries = await readStoredEpub(files, key);
  const opfPath = packagePath(entries);
  if (!opfPath || !entries[opfPath]) return [];
  const opf = parsePackage(utf8(entries[opfPath]));
  if (!opf) return [];
  const items = new Map(manifestItems(opf).map((item) => [item.id, item]));
  return spineRefs(opf).map((ref) => ({ id: ref.idref, path: resolveHref(opfPath, items.get(ref.idref)?.href ?? '') }));
}

/*
 * The table of contents is still read with regular expressions, and on purpose: it only takes labels and
 * link targets from the navigation document or NCX, and must still give them for a page that is not
 * well-formed XML (an HTML entity such as &nbsp;, an unclosed tag), which a strict XML parser refuses as a
 * whole, while a miss here costs a chapter title and never a file. The package document above is different:
 * it is edited, and a misread manifest or spine makes a broken book.
 */
const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag)?.slice(2).find((v) => v !== undefined) ?? '';

const stripTags = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** Labels and targets of the EPUB 3 navigation document's "toc" nav, in order. */
function navEntries(nav: string): Array<{ href: string; label: string }> {
  const toc = /<(?:\w+:)?nav\b[^>]*epub:type\s*=\s*["'][^"']*\btoc\b[^"']*["'][^>]*>([\s\S]*?)<\/(?:\w+:)?nav>/.exec(nav)?.[1] ?? '';
  return [...toc.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({ href: attr(m[1], 'href'), label: stripTags(m[2]) }));
}

/** The same from an EPUB 2 NCX: every navPoint's label and content src, in document order. */
function ncxEntries(ncx: string): Array<{ href: string; label: string }> {
  return [...ncx.matchAll(/<navLabel>\s*<text>([\s\S]*?)<\/text>\s*<\/navLabel>\s*<content\b([^>]*)\/?>/g)].map((m) => ({
    href: attr(m[2], 'src'),
    label: stripTags(m[1]),
  }));
}

/**
 * A stored EPUB's chapters as a reader sees them in its contents: each spine item the table of contents
 * points at, in spine order, with the first label that names it. `index` is the item's place in the
 * spine, which is how the web reader says where it is. A book without a table of contents gives its
 * linear spine items, named by their first heading.
 */
export async function storedContents(files: FileStore, key: string): Promise<Array<{ index: number; path: string; title: string }>> {
  const entries = await readStoredEpub(files, key);
  const opfPath = packagePath(entries);
  if (!opfPath || !entries[opfPath]) return [];
  const opf = parsePackage(utf8(entries[opfPath]));
  if (!opf) return [];
  const manifest = manifestItems(opf);
  const byId = new Map(manifest.map((item) => [item.id, item]));
  const spine = spineRefs(opf).map((ref) => resolveHref(opfPath, byId.get(ref.idref)?.href ?? ''));
  const placeOf = new Map(spine.map((entryPath, index) => [entryPath, index]));

  const navItem = manifest.find((item) => item.properties.split(/\s+/).includes('nav'));
  const ncxItem = manifest.find((item) => item.mediaType === 'application/x-dtbncx+xml');
  const tocItem = navItem ?? ncxItem;
  const labels = new Map<number, string>();
  if (tocItem) {
    const tocPath = resolveHref(opfPath, tocItem.href);
    const doc = entries[tocPath] ? utf8(entries[tocPath]) : '';
    for (const { href, label } of navItem ? navEntries(doc) : ncxEntries(doc)) {
      const index = placeOf.get(resolveHref(tocPath, href));
      if (index !== undefined && label && !labels.has(index)) labels.set(index, label);
    }
  }
  if (labels.size > 0) return [...labels].sort((a, b) => a[0] - b[0]).map(([index, title]) => ({ index, path: spine[index], title }));
  return spine.flatMap((entryPath, index) => {
    const doc = entries[entryPath] ? utf8(entries[entryPath]) : '';
    const heading = /<h[1-3]\b[^>]*>([\s\S]*?)<\/h[1-3]>/.exec(doc)?.[1];
    const title = heading ? stripTags(heading) : '';
    return title ? [{ index, path: entryPath, title }] : [];
  });
}
