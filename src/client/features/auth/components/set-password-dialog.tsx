/**
 * A first password for an account made by an emailed sign-in link (decision 0084): it has no current
 * password to give, so only the new one is asked, under the change-password rules.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { setPasswordSchema, type SetPasswordInput } from '@shared/schemas/login-link';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { toast } from '@client/components/ui/toast-store';
import { setPasswordRequest, userProfileKey } from '../account-calls';
import { PasswordInput } from './password-input';
import { PasswordRules } from './password-rules';

export interface SetPasswordDialogProps {
  userId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function SetPasswordDialog({ userId, open, onOpenChange }: SetPasswordDialogProps) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SetPasswordInput>({ resolver: zodResolver(setPasswordSchema), defaultValues: { newPassword: '' }, reValidateMode: 'onChange' });

  const changeOpen = (next: boolean) => {
    if (!next) reset({ newPassword: '' });
    onOpenChange(next);
  };

  const onSubmit = async (values: SetPasswordInput) => {
    const result = await setPasswordRequest(userId, values);
    if (result.kind !== 'ok') {
      const message = result.kind === 'failed' ? result.message : null;
      toast({ title: 'Error', description: message ?? 'Failed to set password', variant: 'destructive' });
      return;
    }
    toast({ title: 'Success', description: result.data.message });
    changeOpen(false);
    await queryClient.invalidateQueries({ queryKey: userProfileKey(userId) });
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Set Password</DialogTitle>
          <DialogDescription>
            Your account signs in with emailed links. Choose a password to sign in with it too.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Set password" className="grid gap-5">
          <FormField label="New Password" error={errors.newPassword?.message}>
            <PasswordInput autoComplete="new-password" {...register('newPassword')} />
          </FormField>
          <PasswordRules />
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              <KeyRound aria-hidden="true" />
              {isSubmitting ? 'Saving...' : 'Set Password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
