import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GalleryCover } from '@shared/schemas/site';
import { CoverGallery, wrapIndex } from './cover-gallery';

const covers: GalleryCover[] = ['eBook Edition', 'Hardcover — Full Jacket', 'Paperback Edition'].map((title, i) => ({
  id: `c${i}`,
  title,
  description: `Description of ${title}`,
  image: `/images/covers/c${i}.svg`,
  alt: `Alt of ${title}`,
}));

const currentTitle = () => screen.getByRole('heading', { level: 3 }).textContent;

describe('CoverGallery', () => {
  it('wraps around with Previous and Next', () => {
    render(<CoverGallery covers={covers} />);
    expect(currentTitle()).toBe('eBook Edition');
    fireEvent.click(screen.getByRole('button', { name: 'Previous cover' }));
    expect(currentTitle()).toBe('Paperback Edition');
    expect(screen.getByText(/Cover 3 of 3/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next cover' }));
    expect(currentTitle()).toBe('eBook Edition');
    fireEvent.click(screen.getByRole('button', { name: 'Next cover' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next cover' }));
    expect(currentTitle()).toBe('Paperback Edition');
    fireEvent.click(screen.getByRole('button', { name: 'Next cover' }));
    expect(currentTitle()).toBe('eBook Edition');
    expect(screen.getByText('Description of eBook Edition')).toBeInTheDocument();
  });

  it('wrapIndex wraps both ways', () => {
    expect([-1, 0, 2, 3, -4].map((i) => wrapIndex(i, 3))).toEqual([2, 0, 2, 0, 2]);
  });

  it('selects a cover from its thumbnail and marks it current', () => {
    render(<CoverGallery covers={covers} />);
    const thumb = screen.getByRole('button', { name: 'Show Hardcover — Full Jacket' });
    fireEvent.click(thumb);
    expect(currentTitle()).toBe('Hardcover — Full Jacket');
    expect(thumb).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('img', { name: 'Alt of Hardcover — Full Jacket' })).toBeInTheDocument();
  });

  it('is keyboard operable: arrow keys step, Enter opens the lightbox, Escape and Close close it', async () => {
    const user = userEvent.setup();
    render(<CoverGallery covers={covers} />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'View larger: eBook Edition' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(currentTitle()).toBe('Paperback Edition');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(currentTitle()).toBe('Hardcover — Full Jacket');

    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Hardcover — Full Jacket' });
    expect(within(dialog).getByRole('img', { name: 'Alt of Hardcover — Full Jacket' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View larger: Hardcover — Full Jacket' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'View larger: Hardcover — Full Jacket' }));
    const again = await screen.findByRole('dialog');
    await user.click(within(again).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
