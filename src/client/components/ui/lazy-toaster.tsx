/**
 * Mounts the Radix Toaster only once the first toast is raised, so Radix Toast stays out of the
 * first-paint bundle. The store keeps every toast raised before then (open), and Radix shows them and
 * starts their timers as soon as the Toaster mounts. Once mounted it stays mounted.
 */
import { lazy, Suspense, useState } from 'react';
import { useToast } from './toast-store';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

export function LazyToaster() {
  const { toasts } = useToast();
  const [mounted, setMounted] = useState(false);
  // Derived, sticky state: set during render so the first toast mounts the Toaster in the same pass.
  if (toasts.length > 0 && !mounted) setMounted(true);

  return mounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
