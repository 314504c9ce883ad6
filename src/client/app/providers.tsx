/** App-wide providers: data cache, tooltips (SPEC 9 timings) and the toast region. */
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { TOOLTIP } from '@shared/constants';
import { Toaster } from '@client/components/ui/toaster';
import { queryClient as defaultClient } from '@client/lib/query-client';

export function Providers({ children, client = defaultClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      <TooltipPrimitive.Provider delayDuration={TOOLTIP.delayMs} skipDelayDuration={TOOLTIP.skipDelayMs}>
        {children}
        <Toaster />
      </TooltipPrimitive.Provider>
    </QueryClientProvider>
  );
}
