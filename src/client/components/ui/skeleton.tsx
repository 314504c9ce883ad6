/**
 * Loading placeholder; hidden from assistive tech (announce loading with a status elsewhere). `data-skeleton`
 * tells the anchor scroll that content above a section is still to come (lib/scroll-to-anchor.ts).
 */
import type { HTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';

export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" data-skeleton="" className={cn('animate-pulse rounded-md bg-ink-700/70', className)} {...props} />;
}
