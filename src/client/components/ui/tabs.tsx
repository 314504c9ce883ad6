/** Radix Tabs: arrow-key navigation and correct tab/tabpanel roles come from Radix. */
import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentPropsWithoutRef } from 'react';
import { cn } from '@client/lib/cn';

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentPropsWithoutRef<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn('inline-flex items-center gap-1 rounded-lg border border-ink-700 bg-ink-900 p-1', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentPropsWithoutRef<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'rounded-md px-4 py-2 text-sm font-medium text-bone-300 transition-colors hover:text-bone-50',
        'focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none',
        'data-[state=active]:bg-blood-700 data-[state=active]:text-bone-50',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentPropsWithoutRef<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn('mt-6 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none', className)}
      {...props}
    />
  );
}
