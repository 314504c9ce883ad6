/**
 * Floating bottom bar (docs/PRODUCT.md, Floating bar): Home, Dashboard (admins only), Blog and a user menu.
 * Uses the 5-minute cached auth status so it never adds polling of its own. It steps aside whenever a
 * control of the page is beneath it (use-bar-clearance.ts), and sits above the safe area of notched phones.
 */
import { useRef } from 'react';
import { NavLink } from '@client/lib/router';
import { BookOpen, Home, LayoutDashboard } from 'lucide-react';
import { useAuthStatus } from '@client/features/auth/api';
import { cn } from '@client/lib/cn';
import { AccountMenuSlot } from './account-menu-slot';
import { useBarClearance } from './use-bar-clearance';

const itemClass =
  'flex flex-col items-center gap-0.5 rounded-full px-4 py-1.5 text-[11px] font-medium tracking-wide text-bone-300 transition-colors hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none [&_svg]:size-5';
const navClass = ({ isActive }: { isActive: boolean }) => cn(itemClass, isActive && 'text-bone-50 [&_svg]:text-blood-400');

export function FloatingBar() {
  const { isAuthenticated, isAdmin } = useAuthStatus({ cache: 'long' });
  const ref = useRef<HTMLElement>(null);
  const covering = useBarClearance(ref);

  return (
    <nav
      ref={ref}
      aria-label="Quick navigation"
      data-covering={covering || undefined}
      className={cn(
        'fixed bottom-[calc(1rem+env(safe-area-inset-bottom))] left-1/2 z-30 -translate-x-1/2 rounded-full border border-ink-700 bg-ink-900/90 px-2 py-1.5 shadow-2xl shadow-black/70 backdrop-blur-md transition-[opacity,visibility] duration-150',
        covering && 'pointer-events-none invisible opacity-0',
      )}
    >
      <ul className="flex items-center">
        <li>
          <NavLink to="/" end className={navClass}>
            <Home aria-hidden="true" />
            Home
          </NavLink>
        </li>
        {isAdmin ? (
          <li>
            <NavLink to="/dashboard" className={navClass}>
              <LayoutDashboard aria-hidden="true" />
              Dashboard
            </NavLink>
          </li>
        ) : null}
        <li>
          <NavLink to="/blog" className={navClass}>
            <BookOpen aria-hidden="true" />
            Blog
          </NavLink>
        </li>
        <li>
          <AccountMenuSlot isAuthenticated={isAuthenticated} isAdmin={isAdmin} triggerClassName={itemClass} />
        </li>
      </ul>
    </nav>
  );
}
