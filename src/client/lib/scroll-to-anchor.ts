/**
 * Smooth-scroll to a home-page section. When arriving from another page the section may not be
 * rendered yet (lazy page, data loading), so we retry for a short while instead of giving up; and
 * sections above it may still grow after we scrolled (images, data arriving), so for a short settling
 * time we follow the section until it holds still, unless the visitor scrolls on their own.
 */
const RETRY_MS = 50;
const GIVE_UP_MS = 3000;
const SETTLE_MS = 2500;
const SETTLE_CHECK_MS = 150;
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function scrollToAnchor(id: string): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const started = Date.now();

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
  };

  const follow = (el: HTMLElement, settleUntil: number, lastTop: number) => {
    timer = setTimeout(() => {
      if (stopped || !el.isConnected) return stop();
      const top = el.getBoundingClientRect().top + window.scrollY;
      if (Math.abs(top - lastTop) > 2) el.scrollIntoView({ behavior: 'auto', block: 'start' });
      if (Date.now() < settleUntil) follow(el, settleUntil, top);
      else stop();
    }, SETTLE_CHECK_MS);
  };

  const attempt = () => {
    if (stopped) return;
    const el = document.getElementById(id);
    if (el) {
      el.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
      for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
      follow(el, Date.now() + SETTLE_MS, el.getBoundingClientRect().top + window.scrollY);
      return;
    }
    if (Date.now() - started < GIVE_UP_MS) timer = setTimeout(attempt, RETRY_MS);
  };
  attempt();
  return stop;
}

export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
}
