/** A password box with a show/hide toggle; the toggle never submits the form. */
import { forwardRef, useState } from 'react';
import type { InputHTMLAttributes } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { Input } from '@client/components/ui/input';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** Controlled visibility (the change-password dialog reveals a generated suggestion). */
  visible?: boolean;
  onVisibleChange?: (visible: boolean) => void;
}

export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  { visible, onVisibleChange, className, ...props },
  ref,
) {
  const [ownVisible, setOwnVisible] = useState(false);
  const shown = visible ?? ownVisible;
  const toggle = () => {
    const next = !shown;
    if (onVisibleChange) onVisibleChange(next);
    else setOwnVisible(next);
  };
  return (
    <div className="relative">
      <Input ref={ref} type={shown ? 'text' : 'password'} className={`pr-11 ${className ?? ''}`} {...props} />
      <button
        type="button"
        onClick={toggle}
        aria-label={shown ? 'Hide password' : 'Show password'}
        aria-pressed={shown}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-bone-300 hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
      >
        {shown ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
      </button>
    </div>
  );
});
