/**
 * A new username for an account made by an emailed sign-in link, which started with one taken from its
 * address (decision 0084). The sign-up rules apply; the server's refusal (a taken name) shows on the field.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { UserPen } from 'lucide-react';
import { changeUsernameSchema, type ChangeUsernameInput } from '@shared/schemas/login-link';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/toast-store';
import { changeUsernameRequest, userProfileKey } from '../account-calls';

export interface ChangeUsernameDialogProps {
  userId: number;
  current: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ChangeUsernameDialog({ userId, current, open, onOpenChange }: ChangeUsernameDialogProps) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangeUsernameInput>({ resolver: zodResolver(changeUsernameSchema), values: { username: current } });

  const changeOpen = (next: boolean) => {
    if (!next) reset({ username: current });
    onOpenChange(next);
  };

  const onSubmit = async (values: ChangeUsernameInput) => {
    const result = await changeUsernameRequest(userId, values);
    if (result.kind !== 'ok') {
      const message = result.kind === 'failed' ? (result.fields?.username ?? result.message) : null;
      if (message) setError('username', { message });
      toast({ title: 'Error', description: message ?? 'Failed to change username', variant: 'destructive' });
      return;
    }
    toast({ title: 'Success', description: result.data.message });
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: userProfileKey(userId) });
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change Username</DialogTitle>
          <DialogDescription>Your username was taken from your email address. Choose another if you like.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Change username" className="grid gap-5">
          <FormField label="Username" error={errors.username?.message}>
            <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              <UserPen aria-hidden="true" />
              {isSubmitting ? 'Saving...' : 'Save Username'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
