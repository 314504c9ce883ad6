/** The active bundles, priced for whoever is signed in ("Complete your set", decisions 0083 and 0095). */
import { useQuery } from '@tanstack/react-query';
import type { BundleList } from '@shared/schemas/bundles';

export const BUNDLES_KEY = ['/api/bundles'] as const;

/** Asked fresh on every mount: the price depends on what the reader owns, which a purchase changes. */
export function useBundles() {
  return useQuery<BundleList>({ queryKey: BUNDLES_KEY, refetchOnMount: 'always' });
}
