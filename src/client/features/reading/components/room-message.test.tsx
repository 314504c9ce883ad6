import { screen } from '@testing-library/react';
import { mockFetch, renderWithRouter } from '@client/test/render';
import { ContentError } from '../api';
import { RoomMessage } from './room-message';

const renderMessage = (error: unknown, availableAt?: string) =>
  renderWithRouter([{ path: '/read/:bookId/:format', element: <RoomMessage error={error} availableAt={availableAt} /> }], '/read/4/ebook');

describe('RoomMessage', () => {
  it('a pre-ordered book before its release says "Pre-order, available on {date}", not "Not in your library"', async () => {
    mockFetch({});
    renderMessage(new ContentError(403, 'Available on 12 March 2027', 'NOT_RELEASED'), '2027-03-12T09:00:00.000Z');
    expect(screen.getByRole('heading', { name: 'Pre-order, available on 12 March 2027' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('It opens here on release day');
    expect(screen.queryByText('Not in your library')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your library' })).toHaveAttribute('href', '/profile#library');
  });

  it('until the release date is known, the server\'s "Available on {date}" is the heading', () => {
    mockFetch({});
    renderMessage(new ContentError(403, 'Available on 12 March 2027', 'NOT_RELEASED'));
    expect(screen.getByRole('heading', { name: 'Available on 12 March 2027' })).toBeInTheDocument();
  });

  it('a format that is not owned still says "Not in your library" and offers to buy it', () => {
    mockFetch({});
    renderMessage(new ContentError(403, 'You have not purchased this format', 'FORBIDDEN'));
    expect(screen.getByRole('heading', { name: 'Not in your library' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy the book' })).toBeInTheDocument();
  });
});
