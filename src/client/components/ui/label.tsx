import type { LabelHTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium text-bone-100', className)} {...props} />;
}
