/**
 * A tiny external store for notifications (docs/PRODUCT.md, Toasts).
 * Only TOAST.limit toasts exist at once: a new one replaces the old. A dismissed toast stays in the
 * store (closed, so Radix can animate it out) and is removed after TOAST.removeDelayMs.
 */
import { useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { TOAST } from '@shared/constants';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before auto-close; defaults to TOAST.durationMs. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (patch: Partial<ToastInput>) => void;
}

type Listener = () => void;

let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<Listener>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastItem[] {
  return toasts;
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST.removeDelayMs),
  );
}

/** Close one toast, or every toast when no id is given. */
export function dismissToast(id?: string): void {
  const closing = toasts.filter((t) => id === undefined || t.id === id);
  if (closing.length === 0) return;
  closing.forEach((t) => scheduleRemoval(t.id));
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

function updateToast(id: string, patch: Partial<ToastInput>): void {
  emit(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)));
}

export function toast(input: ToastInput): ToastHandle {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToastItem = { variant: 'default', duration: TOAST.durationMs, ...input, id, open: true };
  // Newest first, trimmed to the limit: the toast that falls off is replaced, not queued.
  const kept = [item, ...toasts].slice(0, TOAST.limit);
  for (const dropped of toasts.filter((t) => !kept.includes(t))) {
    clearTimeout(removalTimers.get(dropped.id));
    removalTimers.delete(dropped.id);
  }
  emit(kept);
  return { id, dismiss: () => dismissToast(id), update: (patch) => updateToast(id, patch) };
}

export function useToast(): { toasts: ToastItem[]; toast: typeof toast; dismiss: typeof dismissToast } {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}

/** Test hook: forget every toast and pending removal so tests start clean. */
export function resetToastStore(): void {
  removalTimers.forEach((timer) => clearTimeout(timer));
  removalTimers.clear();
  emit([]);
}
