import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '@client/test/render';
import { AccountMenuSlot } from './account-menu-slot';

// hidden: an open modal menu hides the rest of the page from assistive technology.
const trigger = () => screen.getByRole('button', { name: 'Account menu', hidden: true });

function renderSlot(isAuthenticated = true, isAdmin = false) {
  return renderAt(<AccountMenuSlot isAuthenticated={isAuthenticated} isAdmin={isAdmin} triggerClassName="item" />);
}

describe('AccountMenuSlot', () => {
  it('starts as a plain menu button, with no menu code mounted', () => {
    renderSlot();
    expect(trigger()).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger()).toHaveAttribute('aria-expanded', 'false');
    expect(trigger()).not.toHaveAttribute('data-state');
  });

  it('opens on the first press of the pointer, once the menu has loaded', async () => {
    renderSlot(true, true);
    fireEvent.pointerDown(trigger(), { button: 0, pointerType: 'mouse' });
    fireEvent.click(trigger(), { detail: 1 });
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('Profile');
    expect(menu).toHaveTextContent('Dashboard');
    expect(trigger()).toHaveAttribute('aria-expanded', 'true');
  });

  it('opens on the first Enter and focuses the first item', async () => {
    renderSlot(false);
    trigger().focus();
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    await screen.findByRole('menu');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Login' })).toHaveFocus());
  });

  it('loads on focus without opening, and keeps focus on the trigger', async () => {
    renderSlot();
    trigger().focus();
    // The real Radix trigger replaces the placeholder and takes over its focus.
    await waitFor(() => expect(trigger()).toHaveAttribute('data-state', 'closed'));
    expect(trigger()).toHaveFocus();
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
