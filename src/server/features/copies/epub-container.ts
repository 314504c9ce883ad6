import type { FileStore } from '../../platform/files';
import { type ZipEntry, readStoredZip, readZip as readBoundedZip } from '../../platform/zip';

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
  if (!container) return null;
  const match = /<(?:\w+:)?rootfile\b[^>]*\bfull-path\s*=\s*["']([^"']+)["']/.exec(utf8(container));
  return match ? match[1] : null;
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

export interface ManifestItem {
  id: string;
  href: string;
  mediaType: string;
  properties: string;
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag)?.slice(2).find((v) => v !== undefined) ?? '';

export function manifestItems(opf: string): ManifestItem[] {
  const manifest = /<(?:\w+:)?manifest\b[^>]*>([\s\S]*?)<\/(?:\w+:)?manifest>/.exec(opf)?.[1] ?? '';
  return [...manifest.matchAll(/<(?:\w+:)?item\b[^>]*>/g)].map(([tag]) => ({
    id: attr(tag, 'id'),
    href: attr(tag, 'href'),
    mediaType: attr(tag, 'media-type'),
    properties: attr(tag, 'properties'),
  }));
}

export interface SpineRef {
  idref: string;
  /** The whole itemref tag as written. */
  tag: string;
  index: number;
}

export function spineRefs(opf: string): SpineRef[] {
  const spine = /<(?:\w+:)?spine\b[^>]*>([\s\S]*?)<\/(?:\w+:)?spine>/.exec(opf);
  if (!spine) return [];
  const offset = spine.index + spine[0].indexOf(spine[1]);
  return [...spine[1].matchAll(/<(?:\w+:)?itemref\b[^>]*>/g)].map((m) => ({ idref: attr(m[0], 'idref'), tag: m[0], index: offset + m.index }));
}

/** Text of the first `dc:<name>` element, or null when there is none. */
export function dcValue(opf: string, name: string): string | null {
  const match = new RegExp(`<dc:${name}\\b[^>]*>([\\s\\S]*?)</dc:${name}>`).exec(opf);
  return match ? match[1].replace(/<[^>]*>/g, '').trim() : null;
}


/** A stored EPUB's spine in reading order: each chapter's manifest id and its path in the archive. */
export async function storedSpine(files: FileStore, key: string): Promise<Array<{ id: string; path: string }>> {
  const entries = await readStoredEpub(files, key);
  const opfPath = packagePath(entries);
  if (!opfPath || !entries[opfPath]) return [];
  const opf = utf8(entries[opfPath]);
  const items = new Map(manifestItems(opf).map((item) => [item.id, item]));
  return spineRefs(opf).map((ref) => ({ id: ref.idref, path: resolveHref(opfPath, items.get(ref.idref)?.href ?? '') }));
}
