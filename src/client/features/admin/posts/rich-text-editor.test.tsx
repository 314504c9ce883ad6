import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RichTextEditor } from './rich-text-editor';

/** The editable element's HTML, as the editor holds it. */
const content = () => screen.getByRole('textbox').innerHTML;

describe('RichTextEditor', () => {
  it('shows content that arrives after it started (an existing post loading)', async () => {
    const { rerender } = render(<RichTextEditor id="content" labelId="content-label" value="" onChange={() => {}} />);
    await waitFor(() => expect(screen.getByRole('textbox')).toBeInTheDocument());
    rerender(<RichTextEditor id="content" labelId="content-label" value="<p>Loaded from the server</p>" onChange={() => {}} />);
    await waitFor(() => expect(content()).toContain('Loaded from the server'));
  });

  it('keeps newer typing when its own earlier report comes back as the value', async () => {
    const reports: string[] = [];
    const onChange = (html: string) => reports.push(html);
    const { rerender } = render(<RichTextEditor id="content" labelId="content-label" value="" onChange={onChange} />);
    await waitFor(() => expect(screen.getByRole('textbox')).toBeInTheDocument());
    const editable = screen.getByRole('textbox') as HTMLElement & { editor?: { commands: { insertContent(text: string): boolean } } };
    const editor = editable.editor!;
    act(() => {
      editor.commands.insertContent('The gulls');
    });
    const earlier = reports.at(-1)!;
    act(() => {
      editor.commands.insertContent(' are back');
    });
    // The form renders with the first report only now, after the second keystrokes reached the editor.
    rerender(<RichTextEditor id="content" labelId="content-label" value={earlier} onChange={onChange} />);
    await act(async () => {});
    expect(content()).toContain('The gulls are back');
    expect(reports.at(-1)).toContain('The gulls are back');
  });

  it('formatting buttons do not take the focus from the text on a press (typing goes on in the editor)', async () => {
    render(<RichTextEditor id="content" labelId="content-label" value="" onChange={() => {}} />);
    const toolbar = await screen.findByRole('toolbar', { name: 'Formatting' });
    for (const name of ['Bold', 'Italic', 'Heading', 'Subheading', 'Quote', 'Bulleted list', 'Numbered list']) {
      // fireEvent returns false when the default (moving the focus to the button) was prevented.
      expect(fireEvent.mouseDown(within(toolbar).getByRole('button', { name })), name).toBe(false);
    }
  });
});
