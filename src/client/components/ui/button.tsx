/** Button with the site's variants. Focus ring is always visible for keyboard users. */
import { forwardRef } from 'react';
import type { ButtonHTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';

export type ButtonVariant = 'primary' | 'outline' | 'ghost' | 'destructive';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

const base =
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium tracking-wide transition-colors ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:ring-offset-2 focus-visible:ring-offset-ink-950 ' +
  'disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0';

export const buttonVariants: Record<ButtonVariant, string> = {
  primary: 'bg-blood-600 text-bone-50 shadow-lg shadow-blood-900/40 hover:bg-blood-500',
  outline: 'border border-bone-300/40 bg-transparent text-bone-100 hover:border-bone-100 hover:bg-bone-50/5',
  ghost: 'bg-transparent text-bone-200 hover:bg-bone-50/5 hover:text-bone-50',
  destructive: 'bg-blood-800 text-bone-50 hover:bg-blood-700 border border-blood-500/60',
};

export const buttonSizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'size-10',
};

/** Class list for links that should look like buttons (router links keep their own element). */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra?: string): string {
  return cn(base, buttonVariants[variant], buttonSizes[size], extra);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className, type = 'button', ...props },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClasses(variant, size, className)} {...props} />;
});
