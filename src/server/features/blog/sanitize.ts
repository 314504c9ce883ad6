import sanitizeHtml from 'sanitize-html';

/**
 * Post HTML is written by the author in the admin area and shown to every visitor, so it is cleaned
 * on the way in (and again on the way out, and by DOMPurify in the browser). Only editorial markup
 * survives: no scripts, no event handlers, no inline styles, and links only to http(s), mailto or
 * same-site paths.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h2', 'h3', 'h4', 'blockquote', 'ul', 'ol', 'li', 'em', 'strong', 'b', 'i', 'u', 's',
    'a', 'code', 'pre', 'figure', 'figcaption', 'img', 'cite', 'q', 'small', 'sub', 'sup',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    blockquote: ['cite'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? '');
      // A new tab must not get a handle on this window.
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer', target: '_blank' } : { ...attribs, target: '' },
      };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).replace(/ target=""/g, '');
}
