/**
 * Mounts the Radix Toaster only once it is needed, so Radix Toast stays out of the first-paint bundle:
 * when the first toast is raised, or when the visitor presses F8 (the notification hotkey) before any
 * toast, in which case the region is focused as soon as it exists. The store keeps every toast raised
 * before then (open), and Radix shows them and starts their timers as soon as the Toaster mounts. Once
 * mounted it stays mounted.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { TOAST } from '@shared/constants';
import { useToast } from './toast-store';

const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

export function LazyToaster() {
  const { toasts } = useToast();
  const [mounted, setMounted] = useState(false);
  const [focusOnMount, setFocusOnMount] = useState(false);
  // Derived, sticky state: set during render so the first toast mounts the Toaster in the same pass.
  if (toasts.length > 0 && !mounted) setMounted(true);

  useEffect(() => {
    if (mounted) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== TOAST.hotkey) return;
      setFocusOnMount(true);
      setMounted(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [mounted]);

  return mounted ? (
    <Suspense fallback={null}>
      <Toaster focusOnMount={focusOnMount} />
    </Suspense>
  ) : null;
}
