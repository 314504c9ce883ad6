import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@client/test/render';
import { SendToKindleButton } from './send-to-kindle';

const settings = (devices: Array<{ id: number; address: string }>, sendsToday = 0) => ({
  devices: devices.map((d) => ({ ...d, createdAt: '2026-11-21T12:00:00.000Z' })),
  senderAddress: 'books@example.com',
  maxDevices: 3,
  sendsToday,
  dailyLimit: 5,
});

describe('SendToKindleButton', () => {
  it('explains the approved sender with a copy button, saves an address and sends', async () => {
    let devices: Array<{ id: number; address: string }> = [];
    let sends = 0;
    const fetch = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/library/kindle': () => json(settings(devices, sends)),
      '/api/library/kindle/devices': async (_url, init) => {
        const { address } = JSON.parse(String(init.body));
        devices = [...devices, { id: 1, address }];
        return json({ id: 1, address, createdAt: '2026-11-21T12:00:00.000Z' }, 201);
      },
      '/api/library/1/ebook/send-to-kindle': () => {
        sends += 1;
        return json({ success: true, sendId: 9, message: 'On its way to ada@kindle.com. It usually arrives within a few minutes.' }, 202);
      },
    });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt(<SendToKindleButton bookId={1} title="What We Owe the Dead" />);

    await userEvent.click(screen.getByRole('button', { name: 'Send What We Owe the Dead to Kindle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send to Kindle' });
    expect(within(dialog).getByText('We email your own copy of What We Owe the Dead to your Kindle. Sending does not use up your download.')).toBeInTheDocument();
    expect(await within(dialog).findByText('books@example.com')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy sender address' }));
    expect(writeText).toHaveBeenCalledWith('books@example.com');
    expect(within(dialog).getByRole('button', { name: 'Copy sender address: copied' })).toHaveTextContent('Copied');

    // A non-Kindle address is refused on the spot.
    const input = within(dialog).getByLabelText('Kindle email address');
    await userEvent.type(input, 'ada@gmail.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(within(dialog).getByText('Enter your Kindle address, ending in @kindle.com or @free.kindle.com')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(input);
    await userEvent.type(input, 'ada@kindle.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    const send = await within(dialog).findByRole('button', { name: 'Send to ada@kindle.com' });
    await userEvent.click(send);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('On its way to ada@kindle.com. It usually arrives within a few minutes.');
    await waitFor(() => expect(within(dialog).getByText('1 of 5 sends used today.')).toBeInTheDocument());
    const sendCall = fetch.mock.calls.find(([url]) => String(url).includes('send-to-kindle'))!;
    expect(JSON.parse(String(sendCall[1]!.body))).toEqual({ address: 'ada@kindle.com' });
  });

  it("shows the server's refusal when the day's limit is reached, and hides the form at three addresses", async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/library/kindle': () =>
        json(settings([{ id: 1, address: 'a@kindle.com' }, { id: 2, address: 'b@kindle.com' }, { id: 3, address: 'c@free.kindle.com' }], 4)),
      '/api/library/1/ebook/send-to-kindle': () =>
        json({ code: 'KINDLE_DAILY_LIMIT', message: 'You have sent 5 books to your Kindle today, the most for one day. You can send again after midnight UTC.' }, 429),
    });
    renderAt(<SendToKindleButton bookId={1} title="What We Owe the Dead" />);
    fireEvent.click(screen.getByRole('button', { name: 'Send What We Owe the Dead to Kindle' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('You have saved 3 addresses, the most allowed. Remove one to add another.')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Kindle email address')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send to b@kindle.com' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Not sent');
    expect(alert).toHaveTextContent('You have sent 5 books to your Kindle today, the most for one day. You can send again after midnight UTC.');
  });
});
