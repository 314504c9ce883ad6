import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCsrfToken } from '@client/lib/api-client';
import { json, mockFetch } from '@client/test/render';
import { RichTextEditor } from './rich-text-editor';

const UPLOADED = '/media/images/0123456789abcdef0123456789abcdef.png';
const PNG = () => new File([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'harbour.png', { type: 'image/png' });

/** The editor in a form, as on the post page; the last HTML it reported is shown for the test to read. */
function Form({ start = '' }: { start?: string }) {
  const [html, setHtml] = useState(start);
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <span id="content-label">Content</span>
      <RichTextEditor id="content" labelId="content-label" value={html} onChange={setHtml} />
      <output data-testid="html">{html}</output>
    </form>
  );
}

const reported = () => screen.getByTestId('html').textContent ?? '';

function serverTakesImages() {
  return mockFetch({
    '/api/csrf-token': () => json({ csrfToken: 't' }),
    '/api/admin/images': () => json({ url: UPLOADED, contentType: 'image/png', bytes: 8 }, 201),
  });
}

/** A paste of files, as the browser hands it to the editor. */
function paste(target: HTMLElement, files: File[]) {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'clipboardData', {
    value: { files, types: ['Files'], getData: () => '', items: [] },
  });
  fireEvent(target, event);
}

describe('the editor image tool', () => {
  beforeEach(() => clearCsrfToken());
  afterEach(() => vi.unstubAllGlobals());

  it('uploads the chosen image, asks for its description, and inserts it with its alt text', async () => {
    const fetchMock = serverTakesImages();
    const user = userEvent.setup();
    render(<Form />);
    const toolbar = await screen.findByRole('toolbar', { name: 'Formatting' });
    expect(within(toolbar).getByRole('button', { name: 'Image' })).toBeEnabled();
    await user.upload(screen.getByLabelText('Image file'), PNG());

    const dialog = await screen.findByRole('dialog', { name: 'Describe the image' });
    expect(fetchMock).toHaveBeenCalledWith('/api/admin/images', expect.objectContaining({ method: 'POST' }));
    // The preview (decorative inside the dialog: the field below describes it).
    expect(dialog.querySelector('img')).toHaveAttribute('src', UPLOADED);
    // A description is required: the image is not inserted without one.
    await user.click(within(dialog).getByRole('button', { name: 'Insert image' }));
    expect(within(dialog).getByText('Describe the image for readers who cannot see it.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Image description (alt text)')).toHaveAttribute('aria-invalid', 'true');
    expect(reported()).not.toContain('<img');

    await user.type(within(dialog).getByLabelText('Image description (alt text)'), 'The harbour wall at dusk');
    await user.click(within(dialog).getByRole('button', { name: 'Insert image' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(reported()).toContain(`<img src="${UPLOADED}" alt="The harbour wall at dusk">`);
    expect(screen.getByRole('textbox').querySelector('img')).toHaveAttribute('alt', 'The harbour wall at dusk');

    // A second image goes after the first (which is selected once inserted), never over it.
    await user.upload(screen.getByLabelText('Image file'), PNG());
    const second = await screen.findByRole('dialog', { name: 'Describe the image' });
    await user.type(within(second).getByLabelText('Image description (alt text)'), 'Gulls over the quay');
    await user.click(within(second).getByRole('button', { name: 'Insert image' }));
    await waitFor(() => expect(screen.getByRole('textbox').querySelectorAll('img')).toHaveLength(2));
    expect([...screen.getByRole('textbox').querySelectorAll('img')].map((img) => img.alt)).toEqual(['The harbour wall at dusk', 'Gulls over the quay']);

    // Typing goes on below the picture, never over it.
    const editable = screen.getByRole('textbox') as HTMLElement & { editor?: { commands: { insertContent(text: string): boolean } } };
    act(() => {
      editable.editor!.commands.insertContent('Nobody was there.');
    });
    await waitFor(() => expect(reported()).toMatch(/alt="Gulls over the quay"><p>Nobody was there\.<\/p>$/));
    expect(screen.getByRole('textbox').querySelectorAll('img')).toHaveLength(2);
  });

  it('uploads an image pasted into the text, then inserts it once described', async () => {
    const fetchMock = serverTakesImages();
    const user = userEvent.setup();
    render(<Form />);
    const text = await screen.findByRole('textbox');
    act(() => paste(text, [PNG()]));
    const dialog = await screen.findByRole('dialog', { name: 'Describe the image' });
    await user.type(within(dialog).getByLabelText('Image description (alt text)'), 'Gulls over the quay');
    await user.click(within(dialog).getByRole('button', { name: 'Insert image' }));
    await waitFor(() => expect(reported()).toContain(`<img src="${UPLOADED}" alt="Gulls over the quay">`));
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/admin/images')![1]!.body as FormData;
    expect((sent.get('file') as File).name).toBe('harbour.png');
  });

  it('Cancel leaves the post as it was', async () => {
    serverTakesImages();
    const user = userEvent.setup();
    render(<Form start="<p>Before</p>" />);
    await user.upload(await screen.findByLabelText('Image file'), PNG());
    const dialog = await screen.findByRole('dialog', { name: 'Describe the image' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('textbox').querySelector('img')).toBeNull();
    expect(reported()).toBe('<p>Before</p>');
  });

  it('says why an upload failed, and refuses a file over the limit without sending it', async () => {
    const fetchMock = mockFetch({
      '/api/csrf-token': () => json({ csrfToken: 't' }),
      '/api/admin/images': () => json({ message: 'The image must be a PNG, JPEG, WebP or AVIF file.' }, 415),
    });
    const user = userEvent.setup();
    render(<Form />);
    const input = await screen.findByLabelText('Image file');
    await user.upload(input, PNG());
    expect(await screen.findByRole('alert')).toHaveTextContent('The image must be a PNG, JPEG, WebP or AVIF file.');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();

    fetchMock.mockClear();
    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    await user.upload(input, huge);
    expect(await screen.findByRole('alert')).toHaveTextContent('The image is too large. The limit is 5 MB.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps images uploaded to this site and drops any other from loaded or pasted HTML', async () => {
    render(<Form start={`<p>One</p><img src="${UPLOADED}" alt="Ours"><img src="https://tracker.example/pixel.gif" alt="Theirs">`} />);
    const text = await screen.findByRole('textbox');
    await waitFor(() => expect(text.querySelectorAll('img')).toHaveLength(1));
    expect(text.querySelector('img')).toHaveAttribute('src', UPLOADED);
    expect(text.querySelector('img')).toHaveAttribute('alt', 'Ours');
  });

  it('edits the description of an image already in the post', async () => {
    const user = userEvent.setup();
    render(<Form start={`<img src="${UPLOADED}" alt="Old words">`} />);
    const text = await screen.findByRole('textbox');
    const editable = text as HTMLElement & { editor?: { commands: { setNodeSelection(pos: number): boolean } } };
    await waitFor(() => expect(text.querySelector('img')).not.toBeNull());
    act(() => {
      editable.editor!.commands.setNodeSelection(0);
    });
    await user.click(screen.getByRole('button', { name: 'Image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image description' });
    const field = within(dialog).getByLabelText('Image description (alt text)');
    expect(field).toHaveValue('Old words');
    await user.clear(field);
    await user.type(field, 'The lighthouse in a storm');
    await user.click(within(dialog).getByRole('button', { name: 'Save description' }));
    await waitFor(() => expect(reported()).toContain(`<img src="${UPLOADED}" alt="The lighthouse in a storm">`));
  });
});
