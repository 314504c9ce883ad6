/** Loading placeholder; hidden from assistive tech (announce loading with a status elsewhere). */
import type { HTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';

export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-ink-700/70', className)} {...props} />;
}
