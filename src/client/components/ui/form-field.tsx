/** A labelled field with its hint and validation message, wired for screen readers (aria-invalid, describedby). */
import { cloneElement, useId } from 'react';
import type { ReactElement, ReactNode } from 'react';
import { Label } from '@client/components/ui/label';

export interface FormFieldProps {
  label: ReactNode;
  error?: string;
  /** The control; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  /** The control's id when others refer to it; a generated one otherwise. */
  id?: string;
  /** A short help text under the control, replaced by the error while there is one. */
  hint?: ReactNode;
  /** Extra content under the control (strength meter, suggestion). */
  after?: ReactNode;
  /**
   * Shown at the end of the label row (e.g. "Forgot Password?"). It comes after the control in the
   * document, so the keyboard reaches the control first; the grid only places it visually beside the label.
   */
  labelAside?: ReactNode;
}

export function FormField({ label, error, children, id: givenId, hint, after, labelAside }: FormFieldProps) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const showHint = hint && !error;
  return (
    <div className="grid grid-cols-[1fr_auto] content-start items-center gap-x-3 gap-y-2">
      <Label htmlFor={id} className="col-start-1 row-start-1">
        {label}
      </Label>
      <div className="col-span-2 col-start-1 row-start-2">
        {cloneElement(children, {
          id,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? errorId : showHint ? hintId : undefined,
        })}
      </div>
      {labelAside ? <div className="col-start-2 row-start-1 justify-self-end">{labelAside}</div> : null}
      {error ? (
        <p id={errorId} role="alert" className="col-span-2 text-sm text-blood-300">
          {error}
        </p>
      ) : null}
      {showHint ? (
        <p id={hintId} className="col-span-2 text-xs text-bone-400">
          {hint}
        </p>
      ) : null}
      {after ? <div className="col-span-2">{after}</div> : null}
    </div>
  );
}
