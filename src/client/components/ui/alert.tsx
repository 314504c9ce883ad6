/** Inline message box. Destructive alerts use role="alert" so they are announced immediately. */
import type { HTMLAttributes, ReactNode } from 'react';
import { AlertTriangle, Info } from 'lucide-react';
import { cn } from '@client/lib/cn';

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  variant?: 'default' | 'destructive';
  title?: ReactNode;
}

export function Alert({ variant = 'default', title, children, className, ...props }: AlertProps) {
  const Icon = variant === 'destructive' ? AlertTriangle : Info;
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={cn(
        'flex gap-3 rounded-lg border p-4 text-sm',
        variant === 'destructive' ? 'border-blood-500/70 bg-blood-950/60 text-bone-50' : 'border-ink-600 bg-ink-900 text-bone-100',
        className,
      )}
      {...props}
    >
      <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', variant === 'destructive' && 'text-blood-400')} />
      <div className="grid gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="text-bone-200">{children}</div> : null}
      </div>
    </div>
  );
}
