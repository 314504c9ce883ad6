import { forwardRef } from 'react';
import type { InputHTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';
import { fieldClasses } from './field-styles';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, type = 'text', ...props },
  ref,
) {
  return <input ref={ref} type={type} className={cn(fieldClasses, 'h-10', className)} {...props} />;
});
