/**
 * What the router's `use-sync-external-store/shim` import resolves to in the browser build: the shim exists
 * for React before 18, and this site runs React 19, whose own hook the shim would hand over anyway. Resolving
 * it here keeps the shim's fallback code off every page's first load (vite.config.ts).
 */
export { useSyncExternalStore } from 'react';
