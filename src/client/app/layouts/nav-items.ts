/** Navigation targets shared by the header, footer and floating bar. */
export interface AnchorItem {
  label: string;
  /** Element id of a home-page section. */
  anchor: string;
}

/** Header anchor links on / (docs/PRODUCT.md, Header). "Coming Soon" is the upcoming-book section. */
export const HEADER_ANCHORS: AnchorItem[] = [
  { label: 'Synopsis', anchor: 'synopsis' },
  { label: 'Author', anchor: 'author' },
  { label: 'Reviews', anchor: 'reviews' },
  { label: 'Purchase', anchor: 'purchase' },
  { label: 'Coming Soon', anchor: 'upcoming' },
  { label: 'Contact', anchor: 'contact' },
];

export const FOOTER_QUICK_LINKS: AnchorItem[] = [
  { label: 'Synopsis', anchor: 'synopsis' },
  { label: 'Author', anchor: 'author' },
  { label: 'Reviews', anchor: 'reviews' },
];

export const FOOTER_BOOK_LINKS: AnchorItem[] = [
  { label: 'Hardcover', anchor: 'purchase' },
  { label: 'E-Book', anchor: 'purchase' },
  { label: 'Audiobook', anchor: 'purchase' },
];

export const FOOTER_CONNECT_LINKS: AnchorItem[] = [
  { label: 'Contact', anchor: 'contact' },
  { label: 'Press Kit', anchor: 'contact' },
];

export const FOOTER_LEGAL_PLACEHOLDERS = ['Privacy Policy', 'Terms of Use', 'Cookie Policy'] as const;
