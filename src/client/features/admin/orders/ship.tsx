/** The orders page's "Mark shipped": asks for the carrier and tracking number the buyer will be sent. */
import { useState, type FormEvent } from 'react';
import { Truck } from 'lucide-react';
import { formatLabel } from '@shared/constants';
import { shipOrderSchema, type AdminOrder, type ShipOrderInput } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';

const EMPTY: Required<ShipOrderInput> = { carrier: '', trackingNumber: '', trackingUrl: '' };

/** The first message for each field, as the server would answer it. */
function issuesByField(input: ShipOrderInput): Record<string, string> {
  const result = shipOrderSchema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

export function ShipButton({ order, busy, onShip }: { order: AdminOrder; busy: boolean; onShip: (tracking: ShipOrderInput) => Promise<boolean> }) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const field = (name: keyof ShipOrderInput) => ({
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value })),
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = issuesByField(fields);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (await onShip(fields)) {
      setOpen(false);
      setFields(EMPTY);
    }
  };
  return (
    <>
      <Button size="sm" variant="outline" disabled={busy} onClick={() => setOpen(true)} aria-label={`Mark order ${order.orderReference} shipped`}>
        <Truck aria-hidden="true" />
        Mark shipped
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <form onSubmit={submit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Ship order {order.orderReference}</DialogTitle>
              <DialogDescription>
                {order.buyer.displayName || order.buyer.username} is told by email that the {formatLabel(order.format).toLowerCase()} is on its way, with the
                carrier and tracking number, which also show in their orders. Leave all three empty for a parcel sent without tracking.
              </DialogDescription>
            </DialogHeader>
            <FormField label="Carrier" error={errors.carrier}>
              <Input {...field('carrier')} autoComplete="off" maxLength={100} />
            </FormField>
            <FormField label="Tracking number" error={errors.trackingNumber}>
              <Input {...field('trackingNumber')} autoComplete="off" maxLength={100} />
            </FormField>
            <FormField label="Tracking link (optional)" error={errors.trackingUrl} hint="The carrier's page for this parcel, starting with https://">
              <Input {...field('trackingUrl')} type="url" inputMode="url" autoComplete="off" maxLength={500} />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                Mark shipped
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
