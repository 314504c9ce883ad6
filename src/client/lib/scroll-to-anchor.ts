/**
 * Scroll to a home-page section and make it stay there while the page settles.
 *
 * Arriving from another page (/blog -> /#purchase) the section may not exist yet (lazy page), and what
 * is above it keeps changing size for a while: loading placeholders give way to content, fonts swap,
 * images decode. So after the first scroll we keep checking where the section is and put it back under
 * the header whenever it moved, until everything above it is rendered (no loading placeholder before it,
 * fonts loaded) and it has held still for a moment, or a time limit passes. A visitor who scrolls, taps
 * or presses a key takes over at once, and so does any scroll we did not make while the section stayed
 * where it was in the page (a scrollbar drag, find-in-page, a focus move, another script).
 */
const RETRY_MS = 50;
const GIVE_UP_MS = 5000;
const CHECK_MS = 100;
/** How long the section must hold still, with the content above it rendered, before we let go. */
const QUIET_MS = 700;
/** Never follow longer than this after the section appeared. */
const MAX_FOLLOW_MS = 10_000;
/** How far from the section a loaded page may sit and still count as the browser's own landing. */
const LANDED_SLACK_PX = 4;
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** Loading placeholders carry this attribute (components/ui/skeleton.tsx). */
export const PLACEHOLDER_SELECTOR = '[data-skeleton]';

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The scroll position that puts the section's top where the CSS says sections land (below the header). */
function wantedScroll(el: HTMLElement): number {
  const offset =
    (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) +
    (parseFloat(getComputedStyle(el).scrollMarginTop) || 0);
  const top = el.getBoundingClientRect().top + window.scrollY - offset;
  const max = document.documentElement.scrollHeight - window.innerHeight;
  return Math.max(0, Math.min(top, max));
}

/** The section's top in the page (not the viewport): it changes only when the layout above it does. */
function pageTop(el: HTMLElement): number {
  return el.getBoundingClientRect().top + window.scrollY;
}

/** Whether everything above the section is in its final form. */
function settledAbove(el: HTMLElement): boolean {
  if (typeof document.fonts !== 'undefined' && document.fonts.status !== 'loaded') return false;
  for (const placeholder of document.querySelectorAll(PLACEHOLDER_SELECTOR)) {
    if (el.compareDocumentPosition(placeholder) & Node.DOCUMENT_POSITION_PRECEDING) return false;
  }
  return true;
}

export interface ScrollToAnchorOptions {
  /** 'instant' when arriving on the page (nothing to animate from); smooth by default. */
  behavior?: 'smooth' | 'instant';
  /**
   * The browser has already scrolled to the section (the page was loaded with the hash): only keep it
   * there, and not at all when the reader has moved away from it since.
   */
  landed?: boolean;
}

export function scrollToAnchor(id: string, options: ScrollToAnchorOptions = {}): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const started = Date.now();

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
  };

  const follow = (el: HTMLElement) => {
    const appeared = Date.now();
    let lastMove = appeared;
    let lastY = window.scrollY;
    let lastTop = pageTop(el);
    let animating = options.behavior !== 'instant' && !prefersReducedMotion();
    const check = () => {
      if (stopped || !el.isConnected) return stop();
      const now = Date.now();
      const y = window.scrollY;
      const top = pageTop(el);
      if (animating) {
        // A smooth scroll is under way: wait until it has come to rest before correcting anything.
        if (Math.abs(y - lastY) > 0.5) lastMove = now;
        else animating = false;
      } else if (Math.abs(y - lastY) > 1 && Math.abs(top - lastTop) <= 1) {
        // The page scrolled while nothing above the section changed: not our doing, so not ours to undo.
        return stop();
      } else {
        const wanted = wantedScroll(el);
        if (Math.abs(y - wanted) > 1) {
          window.scrollTo({ top: wanted, behavior: 'instant' });
          lastMove = now;
        }
      }
      lastY = window.scrollY;
      lastTop = top;
      const quiet = !animating && now - lastMove >= QUIET_MS && settledAbove(el);
      if (quiet || now - appeared >= MAX_FOLLOW_MS) return stop();
      timer = setTimeout(check, CHECK_MS);
    };
    timer = setTimeout(check, CHECK_MS);
  };

  // A section missing from the loaded page was not landed on by the browser: it is jumped to once it exists.
  let landed = options.landed === true;
  const attempt = () => {
    if (stopped) return;
    const el = document.getElementById(id);
    if (el) {
      const smooth = options.behavior !== 'instant' && !prefersReducedMotion();
      if (landed) {
        if (Math.abs(window.scrollY - wantedScroll(el)) > LANDED_SLACK_PX) return stop();
      } else if (smooth) el.scrollIntoView({ behavior: 'smooth', block: 'start' });
      else window.scrollTo({ top: wantedScroll(el), behavior: 'instant' });
      for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
      follow(el);
      return;
    }
    landed = false;
    if (Date.now() - started < GIVE_UP_MS) timer = setTimeout(attempt, RETRY_MS);
  };
  attempt();
  return stop;
}

export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
}
