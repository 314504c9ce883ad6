import axe from 'axe-core';
import { screen, within } from '@testing-library/react';
import { json, mockFetch, renderAt } from '@client/test/render';
import { RootLayout } from './root-layout';

afterEach(() => vi.unstubAllGlobals());

async function renderShell() {
  mockFetch({ '/api/users/check-auth': () => json({ isAuthenticated: false, user: null }) });
  const view = renderAt(
    <RootLayout>
      <h1>Page</h1>
    </RootLayout>,
    '/blog',
  );
  await screen.findAllByRole('link', { name: 'Sign In' });
  // The footer's code loads on its own (below the fold); a page the browser draws gets it at once.
  await screen.findByRole('contentinfo');
  return view;
}

describe('site shell', () => {
  it('has landmarks and no axe violations (contrast is checked visually; jsdom has no layout)', async () => {
    const { container } = await renderShell();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  it('footer has its links, placeholders marked as coming soon, and the copyright line', async () => {
    await renderShell();
    const footer = within(screen.getByRole('contentinfo'));
    for (const label of ['Hardcover', 'E-Book', 'Audiobook']) {
      expect(footer.getByRole('link', { name: label })).toHaveAttribute('href', '/#purchase');
    }
    expect(footer.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/#contact');
    expect(footer.getByRole('link', { name: 'Press Kit' })).toHaveAttribute('href', '/#contact');
    for (const label of ['Reading Guide', 'Privacy Policy', 'Terms of Use', 'Cookie Policy']) {
      const placeholder = footer.getByRole('link', { name: new RegExp(`^${label}\\s*\\(coming soon\\)$`) });
      expect(placeholder).toHaveAttribute('aria-disabled', 'true');
      expect(placeholder).not.toHaveAttribute('href');
    }
    for (const name of ['X', 'Instagram', 'Facebook', 'Goodreads']) {
      expect(footer.getByRole('link', { name: `${name} (opens in a new tab)` })).toHaveAttribute('target', '_blank');
    }
    expect(footer.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/login?admin=1');
    expect(footer.getByText(`© ${new Date().getFullYear()} Callum Reyes. All rights reserved.`)).toBeInTheDocument();
  });

  it('floating bar: Home, Blog and an account menu; no Dashboard when signed out', async () => {
    await renderShell();
    const bar = within(screen.getByRole('navigation', { name: 'Quick navigation' }));
    expect(bar.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(bar.getByRole('link', { name: 'Blog' })).toHaveAttribute('href', '/blog');
    expect(bar.queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(bar.getByRole('button', { name: 'Account menu' })).toBeInTheDocument();
  });
});
