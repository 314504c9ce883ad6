/**
 * App-wide providers: the data cache and the toast region, which loads with the first toast.
 * Tooltips bring their own provider (components/ui/tooltip.tsx), so neither Radix Toast nor Radix
 * Tooltip is in the first-paint bundle.
 */
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { LazyToaster } from '@client/components/ui/lazy-toaster';
import { queryClient as defaultClient } from '@client/lib/query-client';

export function Providers({ children, client = defaultClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      {children}
      <LazyToaster />
    </QueryClientProvider>
  );
}
