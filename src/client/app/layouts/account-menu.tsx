/**
 * The floating bar's user dropdown. Its own chunk: the menu and its positioning engine are only
 * needed once someone opens it, so they stay out of the first-paint bundle.
 */
import { useNavigate } from 'react-router';
import { LayoutDashboard, LogIn, UserRound } from 'lucide-react';
import { cn } from '@client/lib/cn';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';

export interface AccountMenuProps {
  isAuthenticated: boolean;
  isAdmin: boolean;
  triggerClassName: string;
}

export default function AccountMenu({ isAuthenticated, isAdmin, triggerClassName }: AccountMenuProps) {
  const navigate = useNavigate();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={cn(triggerClassName, 'data-[state=open]:text-bone-50')} aria-label="Account menu">
        <UserRound aria-hidden="true" />
        <span aria-hidden="true">Account</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent side="top" align="end">
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
