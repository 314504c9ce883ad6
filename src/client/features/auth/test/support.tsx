/** Shared pieces of the account component tests: a toast probe and a location probe. */
import { act } from 'react';
import { useLocation } from '@client/lib/router';
import { resetToastStore, useToast } from '@client/components/ui/toast-store';
import { clearCsrfToken } from '@client/lib/api-client';
import { screen } from '@testing-library/react';

export function ToastProbe() {
  const { toasts } = useToast();
  return (
    <output data-testid="toasts">
      {toasts.filter((t) => t.open).map((t) => `${String(t.title)} / ${String(t.description ?? '')}`).join('|')}
    </output>
  );
}

export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

export const toastText = () => screen.getByTestId('toasts').textContent ?? '';
export const locationText = () => screen.getByTestId('location').textContent ?? '';

export function ResetState() {
  clearCsrfToken();
  act(() => resetToastStore());
}
