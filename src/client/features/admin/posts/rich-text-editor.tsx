/**
 * The post editor: real rich text (TipTap on ProseMirror), not HTML typed by hand. It only offers what
 * the server's sanitizer keeps (paragraphs, h2-h4, bold, italic, underline, strike, quotes, lists, links,
 * code, rules), so what the author sees is what the post shows; the server still cleans every save.
 * Loaded only with the admin post editor page (a lazy route), never with the public pages.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, MouseEvent } from 'react';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import type { Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Heading2, Heading3, Italic, Link2, List, ListOrdered, Quote, Redo2, Undo2, Unlink } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { cn } from '@client/lib/cn';

interface Props {
  id: string;
  labelId: string;
  value: string;
  onChange: (html: string) => void;
  invalid?: boolean;
  describedBy?: string;
}

/** Reports the form may still hand back (it catches up within a render or two). */
const MAX_PENDING_REPORTS = 50;

const extensions = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4] },
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: 'https',
      // The server decides rel/target (new tab and noopener for outside links only).
      HTMLAttributes: { target: null, rel: null, class: null },
    },
  }),
];

/** A link address the sanitizer keeps: http(s), mailto or a path on this site. */
function cleanHref(raw: string): string | null {
  const href = raw.trim();
  if (!href) return null;
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  if (/^(https?:\/\/|mailto:)/i.test(href)) return href;
  if (/^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(href)) return `https://${href}`;
  return null;
}

function Toolbar({ editor, onLink }: { editor: Editor; onLink: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      quote: e.isActive('blockquote'),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  // A press on a formatting button leaves the focus (and the selection) in the text: otherwise the
  // button takes it and the editor only gets it back a frame later, swallowing the keys typed meanwhile.
  const keepFocus = (event: MouseEvent) => event.preventDefault();
  const tools = [
    { label: 'Bold', icon: Bold, active: state.bold, run: () => editor.chain().focus().toggleBold().run() },
    { label: 'Italic', icon: Italic, active: state.italic, run: () => editor.chain().focus().toggleItalic().run() },
    { label: 'Heading', icon: Heading2, active: state.h2, run: () => editor.chain().focus().toggleHeading({ level: 2 }).run() },
    { label: 'Subheading', icon: Heading3, active: state.h3, run: () => editor.chain().focus().toggleHeading({ level: 3 }).run() },
    { label: 'Quote', icon: Quote, active: state.quote, run: () => editor.chain().focus().toggleBlockquote().run() },
    { label: 'Bulleted list', icon: List, active: state.bullets, run: () => editor.chain().focus().toggleBulletList().run() },
    { label: 'Numbered list', icon: ListOrdered, active: state.numbers, run: () => editor.chain().focus().toggleOrderedList().run() },
  ];
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1 border-b border-ink-700 p-1.5">
      {tools.map(({ label, icon: Icon, active, run }) => (
        <Button
          key={label}
          size="sm"
          variant="ghost"
          aria-label={label}
          title={label}
          aria-pressed={active}
          className={cn('px-2', active && 'bg-bone-50/10 text-bone-50')}
          onMouseDown={keepFocus}
          onClick={run}
        >
          <Icon aria-hidden="true" />
        </Button>
      ))}
      <Button size="sm" variant="ghost" aria-label="Link" title="Link" aria-pressed={state.link} className={cn('px-2', state.link && 'bg-bone-50/10 text-bone-50')} onClick={onLink}>
        <Link2 aria-hidden="true" />
      </Button>
      <span className="ml-auto flex gap-1">
        <Button size="sm" variant="ghost" aria-label="Undo" title="Undo" className="px-2" disabled={!state.canUndo} onMouseDown={keepFocus} onClick={() => editor.chain().focus().undo().run()}>
          <Undo2 aria-hidden="true" />
        </Button>
        <Button size="sm" variant="ghost" aria-label="Redo" title="Redo" className="px-2" disabled={!state.canRedo} onMouseDown={keepFocus} onClick={() => editor.chain().focus().redo().run()}>
          <Redo2 aria-hidden="true" />
        </Button>
      </span>
    </div>
  );
}

export function RichTextEditor({ id, labelId, value, onChange, invalid, describedBy }: Props) {
  const [linkOpen, setLinkOpen] = useState(false);
  const [href, setHref] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  // What the editor reported and the form has not handed back yet. Typing can outrun the form's renders, so
  // `value` may come back as an earlier report: our own echo, overtaken by newer typing, never written back.
  const pending = useRef<string[]>([]);

  const editor = useEditor({
    extensions,
    content: value,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        class:
          'prose-post min-h-72 px-4 py-3 text-bone-100 focus:outline-none [&_a]:text-blood-300 [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:border-blood-500 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:mt-5 [&_h2]:font-display [&_h2]:text-2xl [&_h3]:mt-4 [&_h3]:font-display [&_h3]:text-xl [&_ol]:ml-6 [&_ol]:list-decimal [&_p]:my-3 [&_ul]:ml-6 [&_ul]:list-disc',
      },
    },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      pending.current.push(html);
      if (pending.current.length > MAX_PENDING_REPORTS) pending.current.shift();
      onChange(html);
    },
  });

  // Content loaded after the editor started (editing an existing post) replaces the empty document.
  useEffect(() => {
    if (!editor) return;
    const load = () => {
      if (!editor.isInitialized || editor.isDestroyed) return;
      const echoed = pending.current.indexOf(value);
      if (echoed >= 0) {
        pending.current.splice(0, echoed + 1);
        return;
      }
      pending.current = [];
      const current = editor.isEmpty ? '' : editor.getHTML();
      if (value !== current) editor.commands.setContent(value, { emitUpdate: false });
    };
    load();
    editor.on('create', load);
    return () => {
      editor.off('create', load);
    };
  }, [editor, value]);

  // Invalid state and error text reach assistive tech on the editable element itself.
  // The editor's view exists only once it is mounted (reading it earlier throws), so this also runs on mount.
  useEffect(() => {
    if (!editor) return;
    const apply = () => {
      if (!editor.isInitialized || editor.isDestroyed) return;
      const el = editor.view.dom;
      if (invalid) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
      if (describedBy) el.setAttribute('aria-describedby', describedBy);
      else el.removeAttribute('aria-describedby');
    };
    apply();
    editor.on('create', apply);
    return () => {
      editor.off('create', apply);
    };
  }, [editor, invalid, describedBy]);

  if (!editor) return null;

  const openLink = () => {
    setHref(String(editor.getAttributes('link').href ?? ''));
    setLinkError(null);
    setLinkOpen(true);
  };
  const applyLink = (event: FormEvent) => {
    event.preventDefault();
    const clean = cleanHref(href);
    if (!clean) {
      setLinkError('Use a web address (https://...), an email link (mailto:...) or a path on this site (/blog/...).');
      return;
    }
    editor.chain().focus().extendMarkRange('link').setLink({ href: clean }).run();
    setLinkOpen(false);
  };
  const removeLink = () => {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    setLinkOpen(false);
  };

  return (
    <div className={cn('rounded-md border bg-ink-950/60', invalid ? 'border-blood-400' : 'border-ink-600', 'focus-within:ring-2 focus-within:ring-blood-400')}>
      <Toolbar editor={editor} onLink={openLink} />
      {linkOpen ? (
        // Not a nested <form>: the editor sits inside the post form.
        <div className="grid gap-2 border-b border-ink-700 p-2" role="group" aria-label="Link">
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${id}-href`} className="text-sm text-bone-200">
              Link address
            </label>
            <Input
              id={`${id}-href`}
              value={href}
              autoFocus
              className="h-8 min-w-0 flex-1"
              placeholder="https://"
              aria-invalid={linkError ? true : undefined}
              aria-describedby={linkError ? `${id}-href-error` : undefined}
              onChange={(e) => setHref(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') applyLink(e);
                if (e.key === 'Escape') setLinkOpen(false);
              }}
            />
            <Button size="sm" onClick={applyLink}>
              Apply
            </Button>
            {editor.isActive('link') ? (
              <Button size="sm" variant="ghost" onClick={removeLink}>
                <Unlink aria-hidden="true" />
                Remove link
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={() => setLinkOpen(false)}>
              Close
            </Button>
          </div>
          {linkError ? (
            <p id={`${id}-href-error`} className="text-sm text-blood-300">
              {linkError}
            </p>
          ) : null}
        </div>
      ) : null}
      <EditorContent editor={editor} />
    </div>
  );
}
