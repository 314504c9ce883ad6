/**
 * The post editor: real rich text (TipTap on ProseMirror), not HTML typed by hand. It only offers what
 * the server's sanitizer keeps (paragraphs, h2-h4, bold, italic, underline, strike, quotes, lists, links,
 * code, rules, and images uploaded to this site, each with its description: see post-images.tsx), so
 * what the author sees is what the post shows; the server still cleans every save.
 * Loaded only with the admin post editor page (a lazy route), never with the public pages.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, MouseEvent } from 'react';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import type { Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Redo2, Undo2, Unlink, X } from 'lucide-react';
import { IMAGE_ACCEPT } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/cn';
import { DescribeImageDialog, PostImage, imageFiles, usePostImages } from './post-images';

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
  PostImage,
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

function Toolbar({ editor, onLink, onImage, imageBusy }: { editor: Editor; onLink: () => void; onImage: () => void; imageBusy: boolean }) {
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
      image: e.isActive('image'),
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
      <Button
        size="sm"
        variant="ghost"
        aria-label="Image"
        title={state.image ? 'Image description' : 'Insert an image (or paste or drop one into the text)'}
        aria-pressed={state.image}
        className={cn('px-2', state.image && 'bg-bone-50/10 text-bone-50')}
        disabled={imageBusy}
        onClick={onImage}
      >
        <ImagePlus aria-hidden="true" />
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
  const fileInput = useRef<HTMLInputElement>(null);
  // Paste and drop are heard by the editor, which was set up once: they reach the current upload through this.
  const uploadRef = useRef<(file: File, at?: number) => Promise<void>>(async () => {});

  const editor = useEditor({
    extensions,
    content: value,
    editorProps: {
      // Image files pasted or dropped into the text are uploaded, described, then inserted (where dropped).
      handlePaste: (_view, event) => {
        const [file] = imageFiles(event.clipboardData?.files);
        if (!file) return false;
        event.preventDefault();
        void uploadRef.current(file);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        const [file] = moved ? [] : imageFiles(event.dataTransfer?.files);
        if (!file) return false;
        event.preventDefault();
        void uploadRef.current(file, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        class:
          'prose-post min-h-72 px-4 py-3 text-bone-100 focus:outline-none [&_img]:my-4 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-md [&_img.ProseMirror-selectednode]:ring-2 [&_img.ProseMirror-selectednode]:ring-blood-400 [&_a]:text-blood-300 [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:border-blood-500 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:mt-5 [&_h2]:font-display [&_h2]:text-2xl [&_h3]:mt-4 [&_h3]:font-display [&_h3]:text-xl [&_ol]:ml-6 [&_ol]:list-decimal [&_p]:my-3 [&_ul]:ml-6 [&_ul]:list-disc',
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

  const images = usePostImages(editor);
  uploadRef.current = images.upload;

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
      <Toolbar
        editor={editor}
        onLink={openLink}
        imageBusy={images.busy}
        onImage={() => {
          // A selected image gets its description edited; otherwise a file is chosen.
          if (!images.describeSelected()) fileInput.current?.click();
        }}
      />
      <input
        ref={fileInput}
        type="file"
        accept={IMAGE_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label="Image file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void images.upload(file);
        }}
      />
      {images.busy ? (
        <div className="border-b border-ink-700 px-3 py-2">
          <Spinner label="Uploading the image..." showLabel />
        </div>
      ) : null}
      {images.problem ? (
        <div role="alert" className="flex items-center gap-2 border-b border-ink-700 bg-blood-900/20 px-3 py-2 text-sm text-blood-200">
          <span className="flex-1">{images.problem}</span>
          <Button size="sm" variant="ghost" aria-label="Dismiss" className="px-2" onClick={images.dismissProblem}>
            <X aria-hidden="true" />
          </Button>
        </div>
      ) : null}
      <DescribeImageDialog image={images.describing} onPlace={images.place} onCancel={images.cancel} />
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
