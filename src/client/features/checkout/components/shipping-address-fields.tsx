/**
 * Where a hardcover or paperback ships, asked on the local payment page before Pay (Stripe's hosted page
 * asks for it itself). Checked with the shared schema, so the messages are the server's.
 */
import { type ShippingAddress, shippingAddressSchema } from '@shared/schemas/checkout';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';

export type AddressDraft = Record<keyof ShippingAddress, string>;
export type AddressErrors = Partial<Record<keyof ShippingAddress, string>>;

export const EMPTY_ADDRESS: AddressDraft = { name: '', line1: '', line2: '', city: '', postalCode: '', country: 'United Kingdom' };

/** The address to send, or the message for each field that needs one. */
export function checkAddress(draft: AddressDraft): { address: ShippingAddress } | { errors: AddressErrors } {
  const parsed = shippingAddressSchema.safeParse({ ...draft, line2: draft.line2.trim() || undefined });
  if (parsed.success) return { address: parsed.data };
  const errors: AddressErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof ShippingAddress] ??= issue.message;
  return { errors };
}

const FIELDS: Array<{ key: keyof ShippingAddress; label: string; autoComplete: string; wide?: boolean }> = [
  { key: 'name', label: 'Full name', autoComplete: 'shipping name', wide: true },
  { key: 'line1', label: 'Address line 1', autoComplete: 'shipping address-line1', wide: true },
  { key: 'line2', label: 'Address line 2 (optional)', autoComplete: 'shipping address-line2', wide: true },
  { key: 'city', label: 'Town or city', autoComplete: 'shipping address-level2' },
  { key: 'postalCode', label: 'Postcode', autoComplete: 'shipping postal-code' },
  { key: 'country', label: 'Country', autoComplete: 'shipping country-name', wide: true },
];

export function ShippingAddressFields({
  value,
  errors,
  disabled,
  onChange,
}: {
  value: AddressDraft;
  errors: AddressErrors;
  disabled?: boolean;
  onChange: (next: AddressDraft) => void;
}) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="mb-3 font-display text-lg font-semibold text-bone-50">Shipping address</legend>
      {FIELDS.map((field) => (
        <div key={field.key} className={field.wide ? 'sm:col-span-2' : undefined}>
          <FormField label={field.label} error={errors[field.key]}>
            <Input
              value={value[field.key]}
              autoComplete={field.autoComplete}
              onChange={(e) => onChange({ ...value, [field.key]: e.target.value })}
            />
          </FormField>
        </div>
      ))}
    </fieldset>
  );
}
