/**
 * The floating bar's account button: a plain button of the same look until the first interaction
 * loads the Radix dropdown (see components/ui/deferred-menu.ts).
 */
import { UserRound } from 'lucide-react';
import { useDeferredMenu } from '@client/components/ui/deferred-menu';
import type { AccountMenuProps } from './account-menu';

type SlotProps = Pick<AccountMenuProps, 'isAuthenticated' | 'isAdmin' | 'triggerClassName'>;

export function AccountMenuSlot(props: SlotProps) {
  const { Menu, menuProps, placeholderProps } = useDeferredMenu<AccountMenuProps>(() => import('./account-menu'));
  if (Menu) return <Menu {...props} {...menuProps} />;
  return (
    <button type="button" className={props.triggerClassName} aria-label="Account menu" {...placeholderProps}>
      <UserRound aria-hidden="true" />
      <span aria-hidden="true">Account</span>
    </button>
  );
}
