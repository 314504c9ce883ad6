import type { HTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: 'default' | 'accent' | 'outline';
}

const variants = {
  default: 'bg-ink-700 text-bone-100',
  accent: 'bg-blood-700 text-bone-50',
  outline: 'border border-bone-300/40 text-bone-200',
} as const;

export function Badge({ variant = 'default', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium tracking-wide', variants[variant], className)}
      {...props}
    />
  );
}
