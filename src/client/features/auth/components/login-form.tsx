/** The Login tab (docs/PRODUCT.md, Sign in): username-or-email, password, "Forgot Password?", "Sign In". */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@client/lib/router';
import { LogIn } from 'lucide-react';
import { loginSchema, type LoginInput } from '@shared/schemas/auth';
import type { Role } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/toast-store';
import { loginRequest } from '../account-calls';
import { FormField } from '@client/components/ui/form-field';
import { PasswordInput } from './password-input';

export interface LoginFormProps {
  /** Prefilled after a registration that did not start a session. */
  defaultUsername?: string;
  /** Called after the sign-in succeeded (token kept by the caller). */
  onSignedIn: (answer: { role: Role; token?: string }) => Promise<void> | void;
}

export function LoginForm({ defaultUsername = '', onSignedIn }: LoginFormProps) {
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: defaultUsername, password: '' },
  });

  useEffect(() => {
    if (defaultUsername) setValue('username', defaultUsername);
  }, [defaultUsername, setValue]);

  const onSubmit = async (values: LoginInput) => {
    const result = await loginRequest(values);
    if (result.kind === 'network') {
      toast({ title: 'Error', description: 'An error occurred during login', variant: 'destructive' });
      return;
    }
    if (result.kind === 'failed') {
      toast({ title: 'Login Failed', description: result.message ?? 'Invalid username or password', variant: 'destructive' });
      return;
    }
    await onSignedIn({ role: result.data.user.role, token: result.data.token });
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Sign in" className="grid gap-5">
      <FormField label="Username or Email" error={errors.username?.message}>
        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
      </FormField>
      <FormField
        label="Password"
        error={errors.password?.message}
        labelAside={
          <Link to="/forgot-password" className="text-sm text-blood-300 underline-offset-4 hover:text-blood-200 hover:underline">
            Forgot Password?
          </Link>
        }
      >
        <PasswordInput autoComplete="current-password" {...register('password')} />
      </FormField>
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
        <LogIn aria-hidden="true" />
        {isSubmitting ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
