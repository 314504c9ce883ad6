import { unzipSync } from 'fflate';

/** The largest uncompressed entry we will inflate: a guard against zip bombs in uploaded or traced files. */
export const MAX_ENTRY_BYTES = 100 * 1024 * 1024;

export type Entries = Record<string, Uint8Array>;

/** Unzips an archive (throws on a broken one); entries keep the archive's order. */
export function readZip(bytes: Uint8Array, wanted: (name: string) => boolean = () => true): Entries {
  return unzipSync(bytes, {
    filter: (file) => {
      if (file.originalSize > MAX_ENTRY_BYTES) throw new Error(`entry ${file.name} is too large`);
      return wanted(file.name);
    },
  });
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

