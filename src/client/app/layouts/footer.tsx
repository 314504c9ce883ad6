/** Site footer (docs/PRODUCT.md, Footer). Placeholder links are marked unavailable rather than dead. */
import type { ReactNode } from 'react';
import { Link } from '@client/lib/router';
import { SITE, SOCIAL_LINKS } from '@client/lib/site';
import { AnchorLink } from './anchor-link';
import { FOOTER_BOOK_LINKS, FOOTER_CONNECT_LINKS, FOOTER_LEGAL_PLACEHOLDERS, FOOTER_QUICK_LINKS } from './nav-items';
import type { AnchorItem } from './nav-items';
import { SocialIcon } from './social-icon';

const linkClass =
  'rounded text-sm text-bone-300 transition-colors hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none';

/** Not a link yet: announced as unavailable, explained on hover, skipped by the keyboard. */
function Placeholder({ children }: { children: ReactNode }) {
  return (
    <span role="link" aria-disabled="true" title="Coming soon" className="cursor-not-allowed text-sm text-bone-400 underline decoration-bone-400/40 decoration-dotted underline-offset-4">
      {children}
      <span className="sr-only"> (coming soon)</span>
    </span>
  );
}

function Column({ title, items, extra }: { title: string; items: AnchorItem[]; extra?: ReactNode }) {
  return (
    <div>
      <h2 className="mb-4 text-xs font-semibold tracking-[0.2em] text-bone-400 uppercase">{title}</h2>
      <ul className="grid gap-2.5">
        {items.map((item) => (
          <li key={item.label}>
            <AnchorLink anchor={item.anchor} className={linkClass}>
              {item.label}
            </AnchorLink>
          </li>
        ))}
        {extra ? <li>{extra}</li> : null}
      </ul>
    </div>
  );
}

export function Footer() {
  const year = new Date().getFullYear();
  // Bottom padding: the floating bar (about 4.5rem with its gap) plus the safe area, so the end of every
  // page is clear of it.
  return (
    <footer className="border-t border-ink-800 bg-ink-950 pb-[calc(7rem+env(safe-area-inset-bottom))]">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-10 px-4 py-14 sm:px-6 md:grid-cols-3 lg:grid-cols-5">
        <div className="col-span-2 md:col-span-3 lg:col-span-2">
          <p className="font-display text-2xl font-semibold text-bone-50">{SITE.bookTitle}</p>
          <p className="mt-1 text-sm text-bone-300">A novel by {SITE.author}</p>
          <p className="mt-4 max-w-sm font-display text-base text-bone-200 italic">“{SITE.tagline}”</p>
          <ul className="mt-6 flex gap-2" aria-label="Social media">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.name}>
                <a
                  href={social.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${social.name} (opens in a new tab)`}
                  title={social.name}
                  className="inline-flex size-10 items-center justify-center rounded-full border border-ink-700 text-bone-200 transition-colors hover:border-blood-500 hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
                >
                  <SocialIcon name={social.name} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <Column title="Quick Links" items={FOOTER_QUICK_LINKS} />
        <Column title="Get the book" items={FOOTER_BOOK_LINKS} />
        <Column title="Connect" items={FOOTER_CONNECT_LINKS} extra={<Placeholder>Reading Guide</Placeholder>} />
      </div>

      <div className="border-t border-ink-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm text-bone-400 sm:px-6 md:flex-row md:items-center md:justify-between">
          <p>
            © {year} {SITE.author}. All rights reserved.
          </p>
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-2" aria-label="Legal">
            {FOOTER_LEGAL_PLACEHOLDERS.map((label) => (
              <li key={label}>
                <Placeholder>{label}</Placeholder>
              </li>
            ))}
            <li>
              <Link to="/login?admin=1" className={linkClass}>
                Admin
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
