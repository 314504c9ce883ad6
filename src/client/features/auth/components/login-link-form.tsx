/**
 * "Email me a sign-in link" under the Login tab (decision 0084). Closed, it is one button; opened, one email
 * box. Every address gets the same answer, shown in place of the form. From a purchase or a gift claim
 * (`returnTo`) a new reader may give just an email: the link then creates the account.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Mail, MailCheck } from 'lucide-react';
import { loginLinkRequestSchema } from '@shared/schemas/login-link';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/toast-store';
import { loginLinkRequest } from '../account-calls';

export interface LoginLinkFormProps {
  returnTo?: 'purchase' | 'gift';
  /** Runs just before the request (the gift claim keeps its page for the tab the link opens). */
  beforeSend?: () => void;
}

const emailOnly = loginLinkRequestSchema.pick({ email: true });

export function LoginLinkForm({ returnTo, beforeSend }: LoginLinkFormProps) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ resolver: zodResolver(emailOnly), defaultValues: { email: '' } });

  const onSubmit = async ({ email }: { email: string }) => {
    beforeSend?.();
    const result = await loginLinkRequest(returnTo ? { email, returnTo } : { email });
    if (result.kind === 'ok') {
      setSent(result.data.message);
      return;
    }
    const description =
      result.kind === 'failed' && result.message
        ? result.message
        : 'An error occurred while processing your request. Please try again later.';
    toast({ title: 'Error', description, variant: 'destructive' });
  };

  if (sent) {
    return (
      <div role="status" data-testid="login-link-sent" className="mt-6 grid gap-2 rounded-md border border-ink-600 bg-ink-950 p-4 text-sm text-bone-200">
        <p className="flex items-center gap-2 font-semibold text-bone-50">
          <MailCheck aria-hidden="true" className="size-4 text-emerald-400" />
          Check Your Email
        </p>
        <p>{sent}</p>
        <p className="text-bone-400">Don't see it? Check your spam folder.</p>
      </div>
    );
  }

  if (!open) {
    return (
      <Button type="button" variant="outline" className="mt-4 w-full" onClick={() => setOpen(true)}>
        <Mail aria-hidden="true" />
        Email me a sign-in link
      </Button>
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Email me a sign-in link" className="mt-6 grid gap-4 border-t border-ink-700 pt-5">
      <p className="text-sm text-bone-300">
        {returnTo
          ? 'No password needed. New here? Your email is enough: the link creates your account.'
          : 'No password needed: we email you a link that signs you in. It works once, for 15 minutes.'}
      </p>
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...register('email')} />
      </FormField>
      <Button type="submit" variant="outline" disabled={isSubmitting} className="w-full">
        <Mail aria-hidden="true" />
        {isSubmitting ? 'Sending...' : 'Send Sign-In Link'}
      </Button>
    </form>
  );
}
