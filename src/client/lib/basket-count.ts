/**
 * The header's basket count: a number the basket code writes whenever it learns the basket (so the header,
 * in the first-view bundle, carries none of that code). Kept in local storage so every tab agrees; this tab
 * hears its own writes through the same 'storage' event other tabs fire.
 */
import { useSyncExternalStore } from 'react';
import * as safeStorage from './safe-storage';

const KEY = 'basket.count';

export function setBasketCount(count: number): void {
  safeStorage.set(KEY, String(count));
  window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
}

const read = () => Number(safeStorage.get(KEY)) || 0;

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

export const useBasketCount = () => useSyncExternalStore(subscribe, read, () => 0);
