/**
 * Change-password dialog (docs/PRODUCT.md, Change password): currentPassword and newPassword with show/hide toggles, a
 * generated suggestion ("Generating..."), and "Update Password" ("Updating..."). Validation runs on
 * submit and again on every change after that. On success the dialog closes and forgets everything.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, Sparkles } from 'lucide-react';
import { changePasswordSchema, type ChangePasswordInput } from '@shared/schemas/auth';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { toast } from '@client/components/ui/toast-store';
import { changePasswordRequest, generatePasswordRequest } from '../account-calls';
import { FormField } from '@client/components/ui/form-field';
import { PasswordInput } from './password-input';
import { PasswordRules } from './password-rules';

const EMPTY: ChangePasswordInput = { currentPassword: '', newPassword: '' };

export interface ChangePasswordDialogProps {
  userId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ChangePasswordDialog({ userId, open, onOpenChange }: ChangePasswordDialogProps) {
  const [suggestion, setSuggestion] = useState<string | null>(null);
  const [generating, setGenerating] = useState(false);
  const [showNew, setShowNew] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const forget = () => {
    reset(EMPTY);
    setSuggestion(null);
    setShowNew(false);
  };

  const changeOpen = (next: boolean) => {
    if (!next) forget();
    onOpenChange(next);
  };

  const generate = async () => {
    setGenerating(true);
    try {
      const password = await generatePasswordRequest();
      setSuggestion(password);
      setShowNew(true);
      setValue('newPassword', password, { shouldDirty: true, shouldValidate: Boolean(errors.newPassword) });
    } catch (error) {
      console.error('Password generation failed', error);
      toast({ title: 'Error', description: 'Failed to generate a strong password', variant: 'destructive' });
    } finally {
      setGenerating(false);
    }
  };

  const onSubmit = async (values: ChangePasswordInput) => {
    const result = await changePasswordRequest(userId, values);
    if (result.kind !== 'ok') {
      const message = result.kind === 'failed' ? result.message : null;
      toast({ title: 'Error', description: message ?? 'Failed to change password', variant: 'destructive' });
      return;
    }
    toast({ title: 'Success', description: 'Your password has been updated successfully' });
    forget();
    onOpenChange(false);
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change Password</DialogTitle>
          <DialogDescription>
            Enter your current password and choose a new one. Other devices signed in to your account will be signed out.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Change password" className="grid gap-5">
          <FormField label="Current Password" error={errors.currentPassword?.message}>
            <PasswordInput autoComplete="current-password" {...register('currentPassword')} />
          </FormField>
          <FormField
            label="New Password"
            error={errors.newPassword?.message}
            after={
              <div className="grid gap-2">
                <Button type="button" variant="outline" size="sm" onClick={generate} disabled={generating} className="justify-self-start">
                  <Sparkles aria-hidden="true" />
                  {generating ? 'Generating...' : 'Generate Strong Password'}
                </Button>
                {suggestion ? (
                  <p className="rounded-md border border-ink-600 bg-ink-950 px-3 py-2 text-xs text-bone-300" data-testid="password-suggestion">
                    Suggested password: <code className="font-mono text-sm break-all text-bone-50">{suggestion}</code>
                    <span className="mt-1 block">It has been filled in for you. Save it in your password manager.</span>
                  </p>
                ) : null}
              </div>
            }
          >
            <PasswordInput autoComplete="new-password" visible={showNew} onVisibleChange={setShowNew} {...register('newPassword')} />
          </FormField>
          <PasswordRules />
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              <KeyRound aria-hidden="true" />
              {isSubmitting ? 'Updating...' : 'Update Password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
