/** Site-wide identity used by the shell (titles, header, footer). */
export const SITE = {
  bookTitle: 'What We Owe the Dead',
  author: 'Callum Reyes',
  tagline: 'Blood makes you brothers. Loyalty makes you family. Betrayal makes you enemies.',
  defaultDescription:
    'What We Owe the Dead, the debut family and psychological thriller by Callum Reyes. Read the synopsis, an excerpt and early reviews, and get your copy.',
} as const;

export const DEFAULT_TITLE = `${SITE.bookTitle} | ${SITE.author}`;

/**
 * Social profiles linked from the footer. The handles are unconfirmed guesses until the author
 * supplies the real profile addresses; every link in the shell reads this list, so change them here.
 */
export const SOCIAL_LINKS = [
  { name: 'X', href: 'https://x.com/callumreyes' },
  { name: 'Instagram', href: 'https://www.instagram.com/callumreyes' },
  { name: 'Facebook', href: 'https://www.facebook.com/callumreyes' },
  { name: 'Goodreads', href: 'https://www.goodreads.com/search?q=Callum+Reyes' },
] as const;
