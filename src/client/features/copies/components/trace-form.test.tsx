import { fireEvent, screen, within } from '@testing-library/react';
import { json, mockFetch, renderWithRouter } from '@client/test/render';
import { TraceForm } from './trace-form';

describe('Trace a Copy', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names the reader (name and email) and the order reference, not a user number', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 'tok' }),
      '/api/admin/trace': () =>
        json({
          purchaseId: 41,
          userId: 7,
          username: 'leaky_reader',
          name: 'Leaky Reader',
          email: 'leaky@example.com',
          orderReference: 'WWD-0A1B2C3D4E',
          format: 'ebook',
          purchasedAt: '2026-11-20T10:00:00.000Z',
        }),
    });
    renderWithRouter([{ path: '/admin/trace', element: <TraceForm /> }], '/admin/trace');
    const file = new File(['PK'], 'shared-on-a-forum.epub', { type: 'application/epub+zip' });
    fireEvent.change(screen.getByLabelText('EPUB or PDF file'), { target: { files: [file] } });
    fireEvent.click(screen.getByRole('button', { name: 'Trace this copy' }));
    const result = within(await screen.findByRole('region', { name: 'Copy found' }));
    expect(result.getByText('Leaky Reader')).toBeInTheDocument();
    expect(result.getByRole('link', { name: 'leaky@example.com' })).toHaveAttribute('href', 'mailto:leaky@example.com');
    expect(result.getByText('WWD-0A1B2C3D4E')).toBeInTheDocument();
    expect(result.getByText('E-Book (EPUB)')).toBeInTheDocument();
    expect(result.queryByText(/user #|#41|leaky_reader/)).not.toBeInTheDocument();
  });
});
