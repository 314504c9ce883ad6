/**
 * A lazily loaded component that can be loaded ahead of rendering. Once its module has arrived it
 * renders directly, without suspending: the server preloads every server-rendered page before
 * rendering, and the browser preloads the current page before hydrating, so both draw the page in
 * one pass and hydration never meets a pending boundary. Until then it behaves like React.lazy.
 */
import { lazy } from 'react';
import type { ComponentType, JSX } from 'react';

export type Preloadable<P> = ((props: P) => JSX.Element) & { preload(): Promise<void> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component's props
export function preloadable<P extends Record<string, any>>(
  load: () => Promise<{ default: ComponentType<P> }>,
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
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Component(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  Component.preload = preload;
  return Component;
}
