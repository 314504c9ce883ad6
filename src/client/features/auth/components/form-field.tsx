/** A labelled field with its validation message, wired for screen readers (aria-invalid, describedby). */
import { cloneElement, useId } from 'react';
import type { ReactElement, ReactNode } from 'react';
import { Label } from '@client/components/ui/label';

export interface FormFieldProps {
  label: ReactNode;
  error?: string;
  /** The control; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  /** Extra content under the control (strength meter, suggestion). */
  after?: ReactNode;
  labelAside?: ReactNode;
}

export function FormField({ label, error, children, after, labelAside }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-blood-300">
          {error}
        </p>
      ) : null}
      {after}
    </div>
  );
}
