import { fireEvent, render, screen } from '@testing-library/react';
import { GIFT_MESSAGES } from '@shared/schemas/gifts';
import { GiftForm, readGiftForm } from './gift-form';

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('GiftForm', () => {
  it('sends the recipient, the message and the delivery moment as the API takes them', async () => {
    const onSubmit = vi.fn();
    render(<GiftForm onSubmit={onSubmit} />);
    fill('Recipient name', ' Fran ');
    fill('Recipient email', 'fran@example.org');
    fill('Message (optional)', 'For the long train home.');
    const later = new Date(Date.now() + 3 * 24 * 3600_000);
    later.setSeconds(0, 0);
    const local = new Date(later.getTime() - later.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    fill('Delivery date and time (optional)', local);
    expect(screen.getByText(/24\/500 characters/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      recipientName: 'Fran',
      recipientEmail: 'fran@example.org',
      message: 'For the long train home.',
      sendAt: later.toISOString(),
    });
  });

  it('leaves message and delivery out when empty (sent at once)', async () => {
    const onSubmit = vi.fn();
    render(<GiftForm onSubmit={onSubmit} />);
    fill('Recipient name', 'Fran');
    fill('Recipient email', 'fran@example.org');
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toEqual({ recipientName: 'Fran', recipientEmail: 'fran@example.org', message: undefined, sendAt: undefined });
  });

  it('refuses a bad email, a message over 500 characters and a moment in the past, and sends nothing', async () => {
    const onSubmit = vi.fn();
    render(<GiftForm onSubmit={onSubmit} />);
    fill('Recipient email', 'not-an-email');
    fill('Message (optional)', 'x'.repeat(501));
    fill('Delivery date and time (optional)', '2020-01-01T10:00');
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText(GIFT_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(GIFT_MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(screen.getByText(GIFT_MESSAGES.messageTooLong)).toBeInTheDocument();
    expect(screen.getByText(GIFT_MESSAGES.sendAtPast)).toBeInTheDocument();
    expect(screen.getByLabelText('Recipient email')).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the server message and a busy button while the checkout starts', () => {
    render(<GiftForm onSubmit={vi.fn()} busy serverError="The payment service is unavailable." />);
    expect(screen.getByRole('alert')).toHaveTextContent('The payment service is unavailable.');
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });

  it('readGiftForm accepts exactly 500 characters', () => {
    const read = readGiftForm({ recipientName: 'A', recipientEmail: 'a@example.org', message: 'y'.repeat(500), sendAt: '' });
    expect(read.ok).toBe(true);
  });
});
