/**
 * A link to a home-page section. On / it scrolls smoothly without a page change; elsewhere it
 * navigates to /#anchor and the root layout scrolls once the home page has rendered.
 */
import type { MouseEvent, ReactNode } from 'react';
import { Link, useLocation, useNavigate } from '@client/lib/router';
import { scrollToAnchor } from '@client/lib/scroll-to-anchor';

export interface AnchorLinkProps {
  anchor: string;
  children: ReactNode;
  className?: string;
  onNavigate?: () => void;
}

export function AnchorLink({ anchor, children, className, onNavigate }: AnchorLinkProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();

  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Let modified clicks (new tab/window) behave like normal links.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    onNavigate?.();
    if (pathname === '/') {
      // Keep the URL shareable without triggering a router navigation.
      window.history.replaceState(window.history.state, '', `/#${anchor}`);
      scrollToAnchor(anchor);
    } else {
      navigate(`/#${anchor}`);
    }
  };

  return (
    <Link to={`/#${anchor}`} onClick={handleClick} className={className}>
      {children}
    </Link>
  );
}
