/** Sticky site header (docs/PRODUCT.md, Header): anchor navigation on /, auth-aware links, mobile menu. */
import { useEffect, useId, useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import { Link, NavLink, useLocation } from '@client/lib/router';
import { LogIn, LogOut, Menu, UserRound, X } from 'lucide-react';
import { useAuthStatus, useLogout } from '@client/features/auth/api';
import { cn } from '@client/lib/cn';
import { useBasketCount } from '@client/lib/basket-count';
import { scrollToTop } from '@client/lib/scroll-to-anchor';
import { SITE } from '@client/lib/site';
import { AnchorLink } from './anchor-link';
import { HEADER_ANCHORS } from './nav-items';

const desktopLink =
  'rounded px-2 py-1.5 text-sm whitespace-nowrap text-bone-200 transition-colors hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none';
const mobileLink =
  'block rounded-md px-3 py-3 text-base text-bone-100 transition-colors hover:bg-ink-800 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none';
const activeClass = 'text-bone-50 underline decoration-blood-500 decoration-2 underline-offset-8';

interface NavEntriesProps {
  mobile: boolean;
  onNavigate?: () => void;
}

/** The link list, shared by the desktop bar and the mobile panel so both always agree. */
function NavEntries({ mobile, onNavigate }: NavEntriesProps) {
  const { pathname } = useLocation();
  const { isAuthenticated, isAdmin } = useAuthStatus();
  const logout = useLogout();
  const linkClass = mobile ? mobileLink : desktopLink;
  const navClass = ({ isActive }: { isActive: boolean }) => cn(linkClass, isActive && !mobile && activeClass);
  const onHome = pathname === '/';
  const basketCount = useBasketCount();

  return (
    <>
      {onHome ? (
        HEADER_ANCHORS.map((item) => (
          <li key={item.anchor}>
            <AnchorLink anchor={item.anchor} className={linkClass} onNavigate={onNavigate}>
              {item.label}
            </AnchorLink>
          </li>
        ))
      ) : (
        <li>
          <NavLink to="/" end className={navClass} onClick={onNavigate}>
            Home
          </NavLink>
        </li>
      )}
      <li>
        <NavLink to="/blog" className={navClass} onClick={onNavigate}>
          Blog
        </NavLink>
      </li>
      <li>
        <NavLink to="/basket" className={navClass} onClick={onNavigate}>
          Basket ({basketCount})
        </NavLink>
      </li>
      {isAuthenticated ? (
        <>
          <li>
            <NavLink to="/profile" className={navClass} onClick={onNavigate}>
              My Profile
            </NavLink>
          </li>
          {isAdmin ? (
            <li>
              <NavLink to="/admin" className={navClass} onClick={onNavigate}>
                {mobile ? 'Admin Dashboard' : 'Admin'}
              </NavLink>
            </li>
          ) : null}
          <li>
            <button
              type="button"
              className={cn(linkClass, 'inline-flex w-full items-center gap-2 text-left whitespace-nowrap')}
              onClick={() => {
                onNavigate?.();
                void logout();
              }}
            >
              <LogOut aria-hidden="true" className="size-4" />
              Logout
            </button>
          </li>
        </>
      ) : (
        <li>
          <NavLink
            to="/login"
            onClick={onNavigate}
            className={
              mobile
                ? mobileLink
                : 'ml-2 inline-flex items-center whitespace-nowrap gap-2 rounded-md border border-blood-500/70 px-3 py-1.5 text-sm text-bone-50 transition-colors hover:bg-blood-700 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none'
            }
          >
            <LogIn aria-hidden="true" className="size-4" />
            Sign In
          </NavLink>
        </li>
      )}
    </>
  );
}

export function Header() {
  const { pathname } = useLocation();
  const { isAuthenticated } = useAuthStatus();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  // A new page closes the menu.
  useEffect(() => setMenuOpen(false), [pathname]);

  // Escape closes the menu and returns focus to its toggle.
  useEffect(() => {
    if (!menuOpen) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const onTitleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    setMenuOpen(false);
    if (pathname === '/') {
      event.preventDefault();
      window.history.replaceState(window.history.state, '', '/');
      scrollToTop();
    }
  };

  const accountLabel = isAuthenticated ? 'My Profile' : 'Sign In';
  // The home page's six section links plus a signed-in reader's links do not fit on one line below
  // 1280 px; there the compact menu is used instead of a wrapping bar.
  const crowded = pathname === '/' && isAuthenticated;

  return (
    <header className="sticky top-0 z-40 border-b border-ink-800/80 bg-ink-950/85 backdrop-blur-md supports-[backdrop-filter]:bg-ink-950/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to="/"
          onClick={onTitleClick}
          className="group flex items-center gap-3 rounded focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
        >
          <span aria-hidden="true" className="h-7 w-1 rounded-full bg-blood-600 transition-all group-hover:h-9" />
          <span className="font-display text-lg font-semibold tracking-tight whitespace-nowrap text-bone-50 sm:text-xl">
            {SITE.bookTitle}
          </span>
        </Link>

        <nav aria-label="Main" className={crowded ? 'hidden xl:block' : 'hidden lg:block'}>
          <ul className="flex items-center gap-1">
            <NavEntries mobile={false} />
          </ul>
        </nav>

        <div className={cn('flex items-center gap-1', crowded ? 'xl:hidden' : 'lg:hidden')}>
          <Link
            to={isAuthenticated ? '/profile' : '/login'}
            aria-label={accountLabel}
            title={accountLabel}
            className="inline-flex size-10 items-center justify-center rounded-md text-bone-100 hover:bg-ink-800 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
          >
            <UserRound aria-hidden="true" className="size-5" />
          </Link>
          <button
            ref={toggleRef}
            type="button"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
            className="inline-flex size-10 items-center justify-center rounded-md text-bone-100 hover:bg-ink-800 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
          >
            {menuOpen ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
          </button>
        </div>
      </div>

      <nav
        id={menuId}
        aria-label="Mobile"
        hidden={!menuOpen}
        className={cn('border-t border-ink-800 bg-ink-950 px-4 pt-2 pb-4', crowded ? 'xl:hidden' : 'lg:hidden')}
      >
        <ul className="grid gap-0.5">
          <NavEntries mobile onNavigate={() => setMenuOpen(false)} />
        </ul>
      </nav>
    </header>
  );
}
