/**
 * /forgot-password (docs/PRODUCT.md, Forgot password): one email field and "Reset Password". After ANY server reply the
 * "Check Your Email" view shows, so the page never reveals whether an account exists; only a network
 * error shows a toast.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@client/lib/router';
import { ArrowLeft, MailCheck, Send } from 'lucide-react';
import { forgotPasswordSchema } from '@shared/schemas/auth';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/toast-store';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { forgotPasswordRequest } from '@client/features/auth/account-calls';
import { FormField } from '@client/components/ui/form-field';

export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });

  const onSubmit = async ({ email }: { email: string }) => {
    const result = await forgotPasswordRequest({ email });
    if (result.kind === 'network') {
      toast({
        title: 'Error',
        description: 'An error occurred while processing your request. Please try again later.',
        variant: 'destructive',
      });
      return;
    }
    setSentTo(email);
  };

  return (
    <div className="mx-auto w-full max-w-md px-4 py-14 sm:py-20">
      <Card>
        {sentTo ? (
          <>
            <CardHeader className="items-center text-center">
              <MailCheck aria-hidden="true" className="mb-2 size-10 text-blood-400" />
              <CardTitle className="text-3xl">Check Your Email</CardTitle>
              <CardDescription>
                If an account exists for <span className="font-medium text-bone-100">{sentTo}</span>, we have sent a link to
                reset your password.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 text-sm text-bone-300">
              <p>The link is valid for 1 hour. If you don't see the email in a few minutes, please check your spam folder.</p>
              <Link to="/login" className={buttonClasses('outline', 'md', 'w-full')}>
                <ArrowLeft aria-hidden="true" />
                Back to Login
              </Link>
            </CardContent>
          </>
        ) : (
          <>
            <CardHeader className="text-center">
              <p className="text-xs font-semibold tracking-[0.25em] text-blood-400 uppercase">Your Account</p>
              <CardTitle className="text-3xl">Forgot Password</CardTitle>
              <CardDescription>Enter the email address of your account and we'll send you a link to set a new password.</CardDescription>
            </CardHeader>
            <CardContent>
              <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Request a password reset" className="grid gap-5">
                <FormField label="Email" error={errors.email?.message}>
                  <Input type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...register('email')} />
                </FormField>
                <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
                  <Send aria-hidden="true" />
                  {isSubmitting ? 'Sending...' : 'Reset Password'}
                </Button>
                <Link to="/login" className="text-center text-sm text-bone-400 underline-offset-4 hover:text-bone-100 hover:underline">
                  Back to Login
                </Link>
              </form>
            </CardContent>
          </>
        )}
      </Card>
    </div>
  );
}
