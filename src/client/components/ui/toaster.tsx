/**
 * Renders the toast store with Radix Toast, which supplies the timing, pause-on-hover/focus,
 * swipe-to-dismiss and the F8 hotkey that focuses the notification region.
 */
import { useEffect, useRef } from 'react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { TOAST } from '@shared/constants';
import { cn } from '@client/lib/cn';
import { dismissToast, useToast } from './toast-store';

export function Toaster({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const { toasts } = useToast();
  const viewportRef = useRef<HTMLOListElement>(null);
  // The F8 that mounted us came before Radix listened for it: do what the hotkey does.
  useEffect(() => {
    if (focusOnMount) viewportRef.current?.focus();
  }, [focusOnMount]);
  return (
    <ToastPrimitive.Provider
      duration={TOAST.durationMs}
      swipeDirection="right"
      swipeThreshold={TOAST.swipeThresholdPx}
      label="Notification"
    >
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          className={cn(
            'toast-root group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-2xl shadow-black/60',
            variant === 'destructive'
              ? 'border-blood-500 bg-blood-900 text-bone-50'
              : 'border-ink-600 bg-ink-800 text-bone-100',
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>
            {description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">{description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close notification"
            className="absolute top-3 right-3 rounded p-1 text-bone-300 transition hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        ref={viewportRef}
        hotkey={[TOAST.hotkey]}
        className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 outline-none sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
