/** The Register tab (docs/PRODUCT.md, Register): email, username, display name, password with strength meter. */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { registerSchema, type RegisterInput } from '@shared/schemas/auth';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/toast-store';
import { registerRequest } from '../account-calls';
import { FormField } from '@client/components/ui/form-field';
import { PasswordInput } from './password-input';
import { PasswordStrengthMeter } from './password-strength-meter';

const EMPTY: RegisterInput = { email: '', username: '', displayName: '', password: '' };

export interface RegisterFormProps {
  /** Called after the account exists; `reset` clears the fields (when no session started). */
  onRegistered: (answer: { username: string; token?: string; reset: () => void }) => Promise<void> | void;
}

export function RegisterForm({ onRegistered }: RegisterFormProps) {
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterInput>({ resolver: zodResolver(registerSchema), defaultValues: EMPTY });
  const password = watch('password');

  const onSubmit = async (values: RegisterInput) => {
    const result = await registerRequest(values);
    if (result.kind === 'network') {
      toast({ title: 'Error', description: 'An error occurred during registration', variant: 'destructive' });
      return;
    }
    if (result.kind === 'failed') {
      const message = result.message ?? 'Unable to create account. Please try again with different details.';
      toast({ title: 'Registration Failed', description: message, variant: 'destructive' });
      // Point at the field the server named (duplicate username or email, common password).
      for (const field of ['email', 'username', 'displayName', 'password'] as const) {
        const fieldMessage = result.fields?.[field];
        if (fieldMessage) setError(field, { message: fieldMessage });
      }
      return;
    }
    await onRegistered({ username: values.username, token: result.data.token, reset: () => reset(EMPTY) });
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Create an account" className="grid gap-5">
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...register('email')} />
      </FormField>
      <FormField label="Username" error={errors.username?.message}>
        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
      </FormField>
      <FormField label="Display Name" error={errors.displayName?.message}>
        <Input autoComplete="nickname" {...register('displayName')} />
      </FormField>
      <FormField label="Password" error={errors.password?.message} after={<PasswordStrengthMeter password={password ?? ''} />}>
        <PasswordInput autoComplete="new-password" {...register('password')} />
      </FormField>
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
        <UserPlus aria-hidden="true" />
        {isSubmitting ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
