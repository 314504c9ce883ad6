/** "Have a discount code?": typed once, carried to checkout with whichever format the reader buys. */
import { useId } from 'react';
import { TicketPercent } from 'lucide-react';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';

export function DiscountCodeField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="mt-8 grid max-w-sm gap-2">
      <Label htmlFor={id} className="flex items-center gap-2">
        <TicketPercent aria-hidden="true" className="size-4 text-blood-400" />
        Discount code
      </Label>
      <Input
        id={id}
        value={value}
        maxLength={40}
        autoComplete="off"
        spellCheck={false}
        placeholder="Optional"
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="text-xs text-bone-400">
        Applied at checkout, where you see the price before you pay.
      </p>
    </div>
  );
}
