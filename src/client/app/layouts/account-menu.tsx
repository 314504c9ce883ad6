/**
 * The floating bar's user dropdown. Its own chunk, loaded by AccountMenuSlot on the first
 * interaction: the menu and its positioning engine are only needed once someone opens it.
 */
import { LayoutDashboard, LogIn, UserRound } from 'lucide-react';
import { useNavigate } from '@client/lib/router';
import { cn } from '@client/lib/cn';
import { useDeferredMenuFocus } from '@client/components/ui/deferred-menu';
import type { DeferredMenuProps } from '@client/components/ui/deferred-menu';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';

export interface AccountMenuProps extends DeferredMenuProps {
  isAuthenticated: boolean;
  isAdmin: boolean;
  triggerClassName: string;
}

export default function AccountMenu({ isAuthenticated, isAdmin, triggerClassName, ...menu }: AccountMenuProps) {
  const navigate = useNavigate();
  const { triggerRef, onContentFocus } = useDeferredMenuFocus(menu);

  return (
    <DropdownMenu open={menu.open} onOpenChange={menu.onOpenChange}>
      <DropdownMenuTrigger
        ref={triggerRef}
        className={cn(triggerClassName, 'data-[state=open]:text-bone-50')}
        aria-label="Account menu"
      >
        <UserRound aria-hidden="true" />
        <span aria-hidden="true">Account</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        side="top"
        align="end"
        onFocus={onContentFocus}
      >
        {isAuthenticated ? (
          <>
            <DropdownMenuLabel>Account</DropdownMenuLabel>
            <DropdownMenuItem onSelect={() => navigate('/profile')}>
              <UserRound aria-hidden="true" />
              Profile
            </DropdownMenuItem>
            {isAdmin ? (
              <>
                <DropdownMenuSeparator />
                <DropdownMenuItem onSelect={() => navigate('/dashboard')}>
                  <LayoutDashboard aria-hidden="true" />
                  Dashboard
                </DropdownMenuItem>
              </>
            ) : null}
          </>
        ) : (
          <DropdownMenuItem onSelect={() => navigate('/login')}>
            <LogIn aria-hidden="true" />
            Login
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
