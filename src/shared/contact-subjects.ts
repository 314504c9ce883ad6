/**
 * The contact form's subjects (docs/PRODUCT.md, Contact). Apart from constants.ts, which travels in the first script every
 * page loads, because only the contact form and its schema need them.
 */
export const CONTACT_SUBJECTS = [
  'Media Inquiry',
  'Speaking Engagement',
  'Book Club Appearance',
  'Bulk Order',
  'Other',
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];
