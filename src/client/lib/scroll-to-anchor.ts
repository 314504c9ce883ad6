/**
 * Smooth-scroll to a home-page section. When arriving from another page the section may not be
 * rendered yet (lazy page, data loading), so we retry for a short while instead of giving up.
 */
const RETRY_MS = 50;
const GIVE_UP_MS = 3000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function scrollToAnchor(id: string): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = Date.now();
  const attempt = () => {
    const el = document.getElementById(id);
    if (el) {
      el.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
      return;
    }
    if (Date.now() - started < GIVE_UP_MS) timer = setTimeout(attempt, RETRY_MS);
  };
  attempt();
  return () => clearTimeout(timer);
}

export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
}
