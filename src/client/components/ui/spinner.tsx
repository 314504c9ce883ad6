import { Loader2 } from 'lucide-react';
import { cn } from '@client/lib/cn';

export interface SpinnerProps {
  /** Text read to screen readers; visible when `showLabel` is set. */
  label?: string;
  showLabel?: boolean;
  className?: string;
}

export function Spinner({ label = 'Loading', showLabel = false, className }: SpinnerProps) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-bone-200', className)}>
      <Loader2 aria-hidden="true" className="size-5 animate-spin text-blood-400" />
      <span className={showLabel ? 'text-sm' : 'sr-only'}>{label}</span>
    </span>
  );
}
