import { DOMParser, XMLSerializer, type Document as XmlDocument, type Element as XmlElement, type Node as XmlNode } from '@xmldom/xmldom';

/*
 * The EPUB package files read as XML: META-INF/container.xml and the package (OPF) document, parsed by a
 * kept DOM library rather than matched with regular expressions, so that comments, CDATA, either quote
 * style, attributes in any order and an `opf:` prefix read as XML says. Edits go through the DOM and are
 * written back by its serializer.
 */

export type { XmlDocument, XmlElement };

export const OPF_NS = 'http://www.idpf.org/2007/opf';
export const DC_NS = 'http://purl.org/dc/elements/1.1/';
const CONTAINER_NS = 'urn:oasis:names:tc:opendocument:xmlns:container';
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * An XML file as a DOM, or null when it is not well-formed. The parser is strict: an error (an undefined
 * entity, a duplicate attribute, an unbound prefix) is a refusal, not something to read around. It expands
 * no entity beyond XML's own five and fetches nothing, so a package cannot grow or reach out while parsed.
 */
export function parseXml(text: string): XmlDocument | null {
  const parser = new DOMParser({
    // Warnings are quirks a reader copes with; anything worse means the file is not XML.
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  });
  try {
    // A byte order mark decodes as a first character that the parser would take for text before the root.
    return parser.parseFromString(text.replace(/^\uFEFF/, ''), 'application/xml');
  } catch {
    return null;
  }
}

/**
 * The child elements of `parent` named `localName` in namespace `ns`, in document order. A document that
 * leaves its elements in no namespace is read too, as the readers that opened it before did.
 */
export function childElements(parent: XmlElement | null, localName: string, ns: string): XmlElement[] {
  if (!parent) return [];
  const found: XmlElement[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as XmlElement;
    if (element.localName === localName && (element.namespaceURI === ns || element.namespaceURI === null)) found.push(element);
  }
  return found;
}

/** The package path named by a container.xml's text (its first rootfile with a full-path), or null. */
export function rootfilePath(container: string): string | null {
  const root = parseXml(container)?.documentElement ?? null;
  if (!root || root.localName !== 'container') return null;
  for (const rootfiles of childElements(root, 'rootfiles', CONTAINER_NS)) {
    for (const rootfile of childElements(rootfiles, 'rootfile', CONTAINER_NS)) {
      const fullPath = rootfile.getAttribute('full-path');
      if (fullPath) return fullPath;
    }
  }
  return null;
}

/**
 * A parsed package (OPF) document: the DOM, and its metadata, manifest and spine (the package's first child
 * of each name, or null). Prefixed (`opf:`) and default namespaces read the same, comments and CDATA are
 * not markup, and edits made through `doc` are written back by `serializePackage`.
 */
export interface PackageDocument {
  doc: XmlDocument;
  metadata: XmlElement | null;
  manifest: XmlElement | null;
  spine: XmlElement | null;
  /** Whether the source ended with a line break (the DOM keeps nothing after the root element). */
  trailingNewline: boolean;
}

/** Parses a package document; null when it is not well-formed XML. */
export function parsePackage(opf: string): PackageDocument | null {
  const doc = parseXml(opf);
  const root = doc?.documentElement ?? null;
  if (!doc || !root) return null;
  const isPackage = root.localName === 'package' && (root.namespaceURI === OPF_NS || root.namespaceURI === null);
  const section = (name: string) => (isPackage ? (childElements(root, name, OPF_NS)[0] ?? null) : null);
  return { doc, metadata: section('metadata'), manifest: section('manifest'), spine: section('spine'), trailingNewline: /\n\s*$/.test(opf) };
}

/** The package document as text again, with every edit made to its DOM. */
export function serializePackage(pkg: PackageDocument): string {
  const text = new XMLSerializer().serializeToString(pkg.doc);
  return pkg.trailingNewline ? `${text}\n` : text;
}

export interface ManifestItem {
  /** The item element, to edit in place. */
  element: XmlElement;
  id: string;
  href: string;
  mediaType: string;
  properties: string;
}

export function manifestItems(pkg: PackageDocument): ManifestItem[] {
  return childElements(pkg.manifest, 'item', OPF_NS).map((item) => ({
    element: item,
    id: item.getAttribute('id') ?? '',
    href: item.getAttribute('href') ?? '',
    mediaType: item.getAttribute('media-type') ?? '',
    properties: item.getAttribute('properties') ?? '',
  }));
}

export interface SpineRef {
  idref: string;
  /** The itemref element, to insert next to. */
  element: XmlElement;
}

export function spineRefs(pkg: PackageDocument): SpineRef[] {
  return childElements(pkg.spine, 'itemref', OPF_NS).map((element) => ({ idref: element.getAttribute('idref') ?? '', element }));
}

/** Text of the first `dc:<name>` element of the metadata (trimmed), or null when there is none. */
export function dcValue(pkg: PackageDocument, name: string): string | null {
  // Any depth: EPUB 2 allows the Dublin Core elements inside a <dc-metadata> wrapper.
  const element = pkg.metadata?.getElementsByTagNameNS(DC_NS, name)[0];
  return element ? (element.textContent ?? '').trim() : null;
}

export function firstElement(parent: XmlElement): XmlElement | null {
  for (let node: XmlNode | null = parent.firstChild; node; node = node.nextSibling) if (node.nodeType === ELEMENT_NODE) return node as XmlElement;
  return null;
}

export function lastElement(parent: XmlElement): XmlElement | null {
  for (let node: XmlNode | null = parent.lastChild; node; node = node.previousSibling) if (node.nodeType === ELEMENT_NODE) return node as XmlElement;
  return null;
}

/** White space only: the indentation between elements. */
const isSpace = (node: XmlNode | null | undefined): node is XmlNode => node?.nodeType === TEXT_NODE && /^\s+$/.test(node.nodeValue ?? '');

/**
 * Puts `element` into `parent` right after `after`, or before its first child element when `after` is null,
 * on a line of its own indented like its neighbour (the white space the document already has before it).
 */
export function placeAfter(element: XmlElement, parent: XmlElement, after: XmlElement | null) {
  const doc = parent.ownerDocument!;
  const neighbour = after ?? firstElement(parent);
  const space = isSpace(neighbour?.previousSibling) ? neighbour.previousSibling!.nodeValue! : '';
  const indent = space.slice(Math.max(0, space.lastIndexOf('\n')));
  if (after) {
    parent.insertBefore(element, after.nextSibling);
    if (indent) parent.insertBefore(doc.createTextNode(indent), element);
  } else if (neighbour) {
    parent.insertBefore(element, neighbour);
    if (indent) parent.insertBefore(doc.createTextNode(indent), neighbour);
  } else parent.appendChild(element);
}

/** Takes `element` out of the document with the indentation before it, so no blank line is left. */
export function removeElement(element: XmlElement) {
  const parent = element.parentNode;
  if (!parent) return;
  if (isSpace(element.previousSibling)) parent.removeChild(element.previousSibling);
  parent.removeChild(element);
}

/**
 * A new element in the namespace of `parent`, named with its prefix (`opf:item` in a document that writes
 * `opf:manifest`), with these attributes in this order.
 */
export function elementLike(parent: XmlElement, localName: string, attributes: Record<string, string>): XmlElement {
  const element = parent.ownerDocument!.createElementNS(parent.namespaceURI, parent.prefix ? `${parent.prefix}:${localName}` : localName);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}
