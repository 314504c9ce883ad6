/** Holding back code of server-rendered parts until the reader comes near them (see lib/preloadable). */
/** Resolves once the server-rendered element `id` enters the view; at once if it is absent. */
export function whenNear(id: string): Promise<void> {
  const element = typeof document === 'undefined' ? null : document.getElementById(id);
  if (!element || typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: '0px' },
    );
    observer.observe(element);
  });
}
