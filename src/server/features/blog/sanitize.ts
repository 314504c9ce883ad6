import sanitizeHtml from 'sanitize-html';
import { isUploadedImagePath } from '@shared/schemas/admin';

/**
 * Post HTML is written by the author in the admin area and shown to every visitor, so it is cleaned
 * on the way in (and again on the way out, and by DOMPurify in the browser). Only editorial markup
 * survives: no scripts, no event handlers, no inline styles, links only to http(s), mailto or
 * same-site paths, and images only uploaded to this site (no tracking pixels or hot-linked pictures),
 * with their description and size kept and loading deferred.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h2', 'h3', 'h4', 'blockquote', 'ul', 'ol', 'li', 'em', 'strong', 'b', 'i', 'u', 's',
    'a', 'code', 'pre', 'figure', 'figcaption', 'img', 'cite', 'q', 'small', 'sub', 'sup',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    blockquote: ['cite'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    img: (tagName, attribs) => {
      // Width and height reserve the image's place while it loads; anything but a whole number is dropped.
      const { width = '', height = '', ...rest } = attribs;
      const sized: Record<string, string> = /^\d{1,5}$/.test(width) && /^\d{1,5}$/.test(height) ? { width, height } : {};
      return { tagName, attribs: { ...rest, ...sized, loading: 'lazy', decoding: 'async' } };
    },
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? '');
      // A new tab must not get a handle on this window.
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer', target: '_blank' } : { ...attribs, target: '' },
      };
    },
  },
  exclusiveFilter: (frame) =>
    (frame.tag === 'a' && !frame.attribs.href && !frame.text.trim()) || (frame.tag === 'img' && !isUploadedImagePath(frame.attribs.src)),
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).replace(/ target=""/g, '');
}
