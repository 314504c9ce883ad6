import { xmlPrintable } from '@shared/schemas/common';

/**
 * Escaping for text placed into HTML or XML, as element content or inside a quoted attribute. One set
 * for every page, mail, feed and e-book we write: the five characters that can end a text or an
 * attribute (the apostrophe as &#39;, which HTML, XHTML and XML all read). Characters no XML document can
 * hold even escaped (control characters, U+FFFE, U+FFFF, broken Unicode) are dropped: one of them in a
 * stored name would make a reader's personal EPUB invalid XML (decision 0058).
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeMarkup = (text: string): string => xmlPrintable(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The reverse, for text read out of markup (the five escapes above, and &apos;). */
export const unescapeMarkup = (text: string): string =>
  text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&amp;/g, '&');
