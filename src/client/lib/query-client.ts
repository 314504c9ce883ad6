/** The app's one QueryClient with the defaults of docs/PRODUCT.md, Requests, for data reads and mutations. */
import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api-client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        // Reads are never stale by default; hooks that need freshness (auth status) opt in.
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
