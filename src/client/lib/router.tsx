/**
 * The app's one door to the router (ADR 0002): wouter underneath, with the small part of the
 * React Router API this code base uses, so pages and components never import the router package.
 *
 * - Link and NavLink: plain anchors that navigate in-app on an unmodified primary click; NavLink marks
 *   the current section (`aria-current="page"`, an `active` class or a className function), matching
 *   `/blog` on `/blog/...` unless `end` is set.
 * - useNavigate(): navigate(path | {pathname?, search?, hash?}, {replace}) and navigate(-1) (history back).
 * - useLocation(): {pathname, search, hash}; re-renders on every navigation and on hashchange.
 * - useParams(), useSearchParams(), Navigate, and Switch/Route/Router for app/router.tsx.
 *
 * The location source is wouter's: the browser by default, or any location hook given to <Router>
 * (tests use a memory location). Such a hook may carry three extras wouter itself has no notion of:
 * `hashHook` (the current hash), `current()` (the whole current location) and `go(delta)` (history).
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';
import {
  Route,
  Router,
  Switch,
  useLocation as useWouterLocation,
  useParams as useWouterParams,
  useRouter,
} from 'wouter';
import { useLocationProperty } from 'wouter/use-browser-location';

export { Route, Router, Switch };

export interface Location {
  pathname: string;
  search: string;
  hash: string;
}

export type To = string | Partial<Location>;

export interface NavigateOptions {
  replace?: boolean;
}

export interface NavigateFunction {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
}

/** Extras a location hook may carry (see the module comment). */
export interface LocationHookExtras {
  hashHook?: () => string;
  current?: () => Location;
  go?: (delta: number) => void;
}

type RouterObject = ReturnType<typeof useRouter>;

const extras = (router: RouterObject): LocationHookExtras => router.hook as unknown as LocationHookExtras;

const readBrowserHash = () => window.location.hash;
const useBrowserHash = () => useLocationProperty(readBrowserHash, () => '');
const browserLocation = (): Location => {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash };
};

const withPrefix = (value: string | undefined, prefix: '?' | '#') =>
  !value || value === prefix ? '' : value.startsWith(prefix) ? value : `${prefix}${value}`;

/** A path string for `to`; the parts an object leaves out come from `from` (pathname) or are empty. */
export function resolveTo(to: To, from: Location): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? from.pathname}${withPrefix(to.search, '?')}${withPrefix(to.hash, '#')}`;
}

export function useLocation(): Location {
  const router = useRouter();
  const [pathname] = useWouterLocation();
  const search = withPrefix(router.searchHook(router), '?');
  const useHash = extras(router).hashHook ?? useBrowserHash;
  const hash = useHash();
  return useMemo(() => ({ pathname, search, hash }), [pathname, search, hash]);
}

/** A stable navigate function that reads the location when called, so it never re-renders its caller. */
export function useNavigate(): NavigateFunction {
  const router = useRouter();
  const [, navigate] = useWouterLocation();
  const latest = useRef({ router, navigate });
  useEffect(() => {
    latest.current = { router, navigate };
  }, [router, navigate]);

  return useCallback((to: To | number, options?: NavigateOptions) => {
    const { router: current, navigate: go } = latest.current;
    const more = extras(current);
    if (typeof to === 'number') {
      if (more.go) more.go(to);
      else window.history.go(to);
      return;
    }
    const here = (more.current ?? browserLocation)();
    const href = resolveTo(to, here);
    // Like React Router: following a link to the page you are on replaces the entry instead of adding one.
    const same = href === `${here.pathname}${here.search}${here.hash}`;
    go(href, { replace: options?.replace ?? same });
  }, []) as NavigateFunction;
}

export function useParams(): Readonly<Record<string, string | undefined>> {
  return useWouterParams() as Record<string, string | undefined>;
}

export type SetSearchParams = (
  next: ConstructorParameters<typeof URLSearchParams>[0],
  options?: NavigateOptions,
) => void;

export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback<SetSearchParams>(
    (next, options) => navigate({ search: new URLSearchParams(next).toString() }, options),
    [navigate],
  );
  return [params, setParams];
}

/** Navigates once when rendered (a redirect inside a render tree, e.g. a route guard). */
export function Navigate({ to, replace = false }: { to: To; replace?: boolean }): null {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace });
    // Only once per mount, like a redirect.
  }, []);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    if (target && target !== '_self') return;
    event.preventDefault();
    navigate(to, replace === undefined ? undefined : { replace });
  };
  return <a href={to} target={target} onClick={handleClick} {...rest} />;
}

/** Whether a link to `to` marks the section of `pathname` (React Router's NavLink rule, case-insensitive). */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const target = (to.split(/[?#]/)[0] || '/').toLowerCase();
  const path = pathname.toLowerCase();
  if (path === target) return true;
  if (end || target === '/') return false;
  const base = target.endsWith('/') ? target.slice(0, -1) : target;
  return path.startsWith(`${base}/`);
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  /** Only the exact path is active, not the pages below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string | undefined);
}

export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const [pathname] = useWouterLocation();
  const isActive = isActivePath(pathname, to, end);
  const classes =
    typeof className === 'function' ? className({ isActive }) : [className, isActive ? 'active' : ''].filter(Boolean).join(' ');
  return <Link to={to} className={classes || undefined} aria-current={isActive ? 'page' : undefined} {...rest} />;
}
