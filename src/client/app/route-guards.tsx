/**
 * Route guards (docs/PRODUCT.md, Admin guard).
 *
 * checking -> spinner; allowed -> the page; denied -> /login?returnTo=admin.
 * The server decides via GET /api/users/check-admin. The relaxation (docs/PRODUCT.md, Admin guard) for local/development
 * hosts (let everyone in, also when the check fails) exists ONLY in a development build: a production
 * bundle has `import.meta.env.DEV === false`, so that branch is compiled out and an error denies.
 */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from '@client/lib/router';
import { apiRequest } from '@client/lib/api-client';
import { Spinner } from '@client/components/ui/spinner';

export const ADMIN_CHECK_PATH = '/api/users/check-admin';
export const ADMIN_LOGIN_REDIRECT = '/login?returnTo=admin';

/** Hostname fragments of hosted development environments (preview/IDE hosts). */
const DEV_HOST_MARKERS = ['.localhost', '.local', '.replit.dev', '.repl.co', '.github.dev', '.gitpod.io', '.csb.app'];

export function isDevelopmentHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1') return true;
  return DEV_HOST_MARKERS.some((marker) => host.endsWith(marker) || host.includes(`${marker}.`));
}

function devRelaxationApplies(): boolean {
  return import.meta.env.DEV && isDevelopmentHost(window.location.hostname);
}

interface AdminStatus {
  isAuthenticated: boolean;
  isAdmin: boolean;
}

async function fetchAdminStatus(signal: AbortSignal): Promise<AdminStatus> {
  try {
    const res = await apiRequest('GET', ADMIN_CHECK_PATH, undefined, { signal });
    return (await res.json()) as AdminStatus;
  } catch (error) {
    console.error('Admin check failed', error);
    throw error;
  }
}

type GuardState = 'checking' | 'allowed' | 'denied';

function useAdminAccess(): GuardState {
  const relaxed = devRelaxationApplies();
  const query = useQuery({
    queryKey: [ADMIN_CHECK_PATH],
    queryFn: ({ signal }) => fetchAdminStatus(signal),
    // Ask the server every time a guarded page mounts; never trust an old answer.
    staleTime: 0,
    gcTime: 0,
    enabled: !relaxed,
  });
  if (relaxed) return 'allowed';
  if (query.isPending) return 'checking';
  if (query.isError) return 'denied';
  return query.data.isAuthenticated && query.data.isAdmin ? 'allowed' : 'denied';
}

function GuardedRoute({ children }: { children: ReactNode }) {
  const state = useAdminAccess();
  if (state === 'checking') {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner label="Checking access" showLabel />
      </div>
    );
  }
  if (state === 'denied') return <Navigate to={ADMIN_LOGIN_REDIRECT} replace />;
  return <>{children}</>;
}

/** Guards /admin with the server's admin check. */
export function AdminGuard({ children }: { children: ReactNode }) {
  return <GuardedRoute>{children}</GuardedRoute>;
}

/** Guards /dashboard and /admin/books/*: the same admin rule as AdminGuard (admin functions). */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  return <GuardedRoute>{children}</GuardedRoute>;
}
