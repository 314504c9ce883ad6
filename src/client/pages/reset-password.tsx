/**
 * /reset-password?token&email (docs/PRODUCT.md, Reset password): validating (~1 s, while the server says whether the link
 * is still usable) -> the form, or "Invalid Reset Link" when token or email is missing or the link is used,
 * expired or replaced -> "Password Reset Complete", then /login after 5 s. If the server cannot be asked,
 * the form shows and the reset itself gives the verdict.
 * The server sends this page with Referrer-Policy: no-referrer, so the token never leaves in a Referer.
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from '@client/lib/router';
import { CheckCircle2, KeyRound, LinkIcon } from 'lucide-react';
import { RESET_SUCCESS_REDIRECT_MS, RESET_VALIDATION_MS } from '@shared/constants';
import { resetPasswordFormSchema } from '@shared/schemas/auth';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/components/ui/toast-store';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { resetLinkStatusRequest, resetPasswordRequest } from '@client/features/auth/account-calls';
import { FormField } from '@client/components/ui/form-field';
import { PasswordInput } from '@client/features/auth/components/password-input';
import { readParam } from '@client/features/auth/query-params';
import { PasswordRules } from '@client/features/auth/components/password-rules';

type State = 'validating' | 'valid' | 'invalid' | 'done';
interface ResetForm {
  password: string;
  confirmPassword: string;
}

const FAILED = 'An error occurred while resetting your password. Please try again.';

export default function ResetPasswordPage() {
  useDocumentTitle('Reset Password');
  const [params] = useSearchParams();
  const token = readParam(params, 'token');
  const email = readParam(params, 'email');
  const navigate = useNavigate();
  const [state, setState] = useState<State>('validating');

  useEffect(() => {
    let cancelled = false;
    const pause = new Promise<void>((resolve) => setTimeout(resolve, RESET_VALIDATION_MS));
    const verdict = token && email ? resetLinkStatusRequest(email, token) : Promise.resolve(false);
    void Promise.all([verdict, pause]).then(([valid]) => {
      if (cancelled) return;
      if (valid !== false) {
        setState('valid');
        return;
      }
      setState('invalid');
      toast({ title: 'Invalid Reset Link', description: 'The password reset link is invalid or has expired.', variant: 'destructive' });
    });
    return () => {
      cancelled = true;
    };
  }, [token, email]);

  useEffect(() => {
    if (state !== 'done') return;
    const timer = setTimeout(() => navigate('/login'), RESET_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetForm>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { password: '', confirmPassword: '' } });

  const onSubmit = async ({ password }: ResetForm) => {
    const result = await resetPasswordRequest({ email, token, newPassword: password });
    if (result.kind === 'ok') {
      setState('done');
      return;
    }
    const description = result.kind === 'failed' ? (result.message ?? FAILED) : FAILED;
    toast({ title: 'Password Reset Failed', description, variant: 'destructive' });
  };

  return (
    <div className="mx-auto w-full max-w-md px-4 py-14 sm:py-20">
      <Card>
        {state === 'validating' ? (
          <CardContent className="flex min-h-56 items-center justify-center p-10">
            <Spinner label="Validating your reset link..." showLabel />
          </CardContent>
        ) : null}

        {state === 'invalid' ? (
          <>
            <CardHeader className="items-center text-center">
              <LinkIcon aria-hidden="true" className="mb-2 size-10 text-blood-400" />
              <CardTitle className="text-3xl">Invalid Reset Link</CardTitle>
              <CardDescription>This password reset link is invalid or has expired. Reset links work once and for 1 hour.</CardDescription>
            </CardHeader>
            <CardContent>
              <Link to="/forgot-password" className={buttonClasses('primary', 'lg', 'w-full')}>
                Request New Link
              </Link>
            </CardContent>
          </>
        ) : null}

        {state === 'valid' ? (
          <>
            <CardHeader className="text-center">
              <p className="text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase">Your Account</p>
              <CardTitle className="text-3xl">Set a New Password</CardTitle>
              <CardDescription>Choose a new password for {email}.</CardDescription>
            </CardHeader>
            <CardContent>
              <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Set a new password" className="grid gap-5">
                <FormField label="New Password" error={errors.password?.message}>
                  <PasswordInput autoComplete="new-password" {...register('password')} />
                </FormField>
                <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
                  <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
                </FormField>
                <PasswordRules />
                <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
                  <KeyRound aria-hidden="true" />
                  {isSubmitting ? 'Resetting...' : 'Reset Password'}
                </Button>
              </form>
            </CardContent>
          </>
        ) : null}

        {state === 'done' ? (
          <>
            <CardHeader className="items-center text-center">
              <CheckCircle2 aria-hidden="true" className="mb-2 size-10 text-emerald-400" />
              <CardTitle className="text-3xl">Password Reset Complete</CardTitle>
              <CardDescription>Your password has been changed. You will be taken to the login page in 5 seconds.</CardDescription>
            </CardHeader>
            <CardContent>
              <Button size="lg" className="w-full" onClick={() => navigate('/login')}>
                Go to Login
              </Button>
            </CardContent>
          </>
        ) : null}
      </Card>
    </div>
  );
}
