import { fireEvent, screen } from '@testing-library/react';
import type { SiteAnswer } from '@shared/schemas/site';
import { renderAt } from '@client/test/render';
import { ExcerptSection } from './excerpt-section';

const site = {
  content: { excerpt: { title: 'The Return', chapter: 'Chapter One', paragraphs: ['First paragraph.', 'Second paragraph.'] } },
} as unknown as SiteAnswer;

describe('ExcerptSection', () => {
  it('starts collapsed, expands on Continue Reading and collapses again on Show Less', () => {
    renderAt(<ExcerptSection site={site} />);
    expect(screen.getByRole('heading', { name: 'The Return' })).toBeInTheDocument();
    const body = screen.getByTestId('excerpt-body');
    expect(body).toHaveClass('max-h-[26rem]', 'overflow-hidden');
    expect(body).toHaveAttribute('data-expanded', 'false');

    const more = screen.getByRole('button', { name: 'Continue Reading' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveAttribute('aria-controls', body.id);
    fireEvent.click(more);
    expect(body).not.toHaveClass('max-h-[26rem]');
    expect(body).toHaveAttribute('data-expanded', 'true');
    expect(screen.queryByRole('button', { name: 'Continue Reading' })).not.toBeInTheDocument();

    const less = screen.getByRole('button', { name: 'Show Less' });
    expect(less).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(less);
    expect(body).toHaveClass('max-h-[26rem]');
    expect(screen.getByRole('button', { name: 'Continue Reading' })).toBeInTheDocument();
  });

  it('has a share menu', () => {
    renderAt(<ExcerptSection site={site} />);
    expect(screen.getByRole('group', { name: 'Share the excerpt' })).toBeInTheDocument();
  });
});
