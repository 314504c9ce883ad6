/**
 * A lazily loaded component that can be loaded ahead of rendering. Once its module has arrived it
 * renders directly, without suspending: the server loads every one of them before rendering, and the
 * browser loads the current page before hydrating, so both draw the page in one pass. Until then it
 * behaves like React.lazy; `before` may hold back that lazy load (e.g. until the part is near the view).
 */
import { lazy } from 'react';
import type { ComponentType, JSX } from 'react';

export type Preloadable<P> = ((props: P) => JSX.Element) & { preload(): Promise<void> };

const registered = new Set<() => Promise<void>>();

/**
 * Loads every preloadable component, including those declared by modules that loading others brought
 * in (a page's sections), for the server, which renders in one pass.
 */
export async function preloadAll(): Promise<void> {
  let done = 0;
  while (done !== registered.size) {
    done = registered.size;
    await Promise.all([...registered].map((preload) => preload()));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component's props
export function preloadable<P extends Record<string, any>>(
  load: () => Promise<{ default: ComponentType<P> }>,
  before?: () => Promise<void>,
): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        pending = null; // a failed download is retried by the next render or preload
        throw error;
      },
    );
    return pending;
  };
  registered.add(preload);
  const Lazy = lazy(async () => {
    if (before && !loaded) await before();
    await preload();
    return { default: loaded! };
  });
  function Component(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  Component.preload = preload;
  return Component;
}
