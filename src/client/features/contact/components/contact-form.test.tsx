import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@client/components/ui/toaster';
import { resetToastStore } from '@client/components/ui/toast-store';
import { clearCsrfToken } from '@client/lib/api-client';
import { json, mockFetch, renderAt } from '@client/test/render';
import { ContactForm } from './contact-form';

function renderForm() {
  renderAt(
    <>
      <ContactForm />
      <Toaster />
    </>,
  );
  return userEvent.setup();
}

async function fill(user: ReturnType<typeof userEvent.setup>, skip?: string) {
  if (skip !== 'name') await user.type(screen.getByLabelText('Name'), 'Ada Reader');
  if (skip !== 'email') await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  if (skip !== 'subject') await user.selectOptions(screen.getByLabelText('Subject'), 'Bulk Order');
  if (skip !== 'message') await user.type(screen.getByLabelText('Message'), 'Twelve copies, please.');
}

describe('ContactForm', () => {
  beforeEach(() => {
    clearCsrfToken();
    act(() => resetToastStore());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('offers the contact subjects and an email-type input', () => {
    renderForm();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    const options = [...(screen.getByLabelText('Subject') as HTMLSelectElement).options].filter((o) => !o.disabled).map((o) => o.value);
    expect(options).toEqual(['Media Inquiry', 'Speaking Engagement', 'Book Club Appearance', 'Bulk Order', 'Other']);
  });

  it.each(['name', 'email', 'subject', 'message'])('shows "Form Incomplete" without calling the server when %s is missing', async (field) => {
    const fetchMock = mockFetch({});
    const user = renderForm();
    await fill(user, field);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Form Incomplete')).toBeInTheDocument();
    expect(screen.getByText('Please fill all required fields')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends, reads "Sending..." while busy, clears the form and shows "Message Sent"', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetchMock = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/contact': async () => {
        await gate;
        return json({ message: 'Thanks!' }, 201);
      },
    });
    const user = renderForm();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Message Sent')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/contact')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({
      name: 'Ada Reader',
      email: 'ada@example.com',
      subject: 'Bulk Order',
      message: 'Twelve copies, please.',
    });
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue(''));
    expect(screen.getByLabelText('Message')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('shows "Error" with the server message and keeps the form', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/contact': () => json({ message: 'Too many requests. Please wait 60 seconds and try again.', code: 'RATE_LIMITED' }, 429),
    });
    const user = renderForm();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Too many requests. Please wait 60 seconds and try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Reader');
  });

  it('falls back to "Failed to send message. Please try again later" without a server message', async () => {
    mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/contact': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    const user = renderForm();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Failed to send message. Please try again later')).toBeInTheDocument();
  });

  it('shows "Something went wrong. Please try again later." on a network failure', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = renderForm();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Something went wrong. Please try again later.')).toBeInTheDocument();
  });
});
