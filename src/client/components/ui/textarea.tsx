import { forwardRef } from 'react';
import type { TextareaHTMLAttributes } from 'react';
import { cn } from '@client/lib/cn';
import { fieldClasses } from './field-styles';

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function Textarea({ className, rows = 5, ...props }, ref) {
    return <textarea ref={ref} rows={rows} className={cn(fieldClasses, 'min-h-24', className)} {...props} />;
  },
);
