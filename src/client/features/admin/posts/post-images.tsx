/**
 * Images in a post. An image chosen with the toolbar's Image button, pasted or dropped into the text is
 * uploaded first (the same route as covers: the server checks the bytes), then the author describes it
 * in a small dialog and it is inserted where the cursor (or the drop) was. Only images uploaded to this
 * site are part of a post: the sanitizer drops any other, so the editor does not take them in either.
 * The image's own size travels with it (width and height), so the published page keeps its place while
 * it loads.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import Image from '@tiptap/extension-image';
import { NodeSelection } from '@tiptap/pm/state';
import type { Editor } from '@tiptap/react';
import { IMAGE_UPLOAD_LIMIT, isUploadedImagePath } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { errorText } from '@client/lib/api-errors';
import { uploadImage } from '../api';

/** Block images, taken in only when they are this site's uploads (pasted HTML brings others). */
export const PostImage = Image.extend({
  parseHTML() {
    return [{ tag: 'img[src]', getAttrs: (el) => (isUploadedImagePath(el.getAttribute('src')) ? null : false) }];
  },
}).configure({ inline: false, allowBase64: false });

/** The image files among what was pasted or dropped. */
export function imageFiles(list: FileList | null | undefined): File[] {
  return [...(list ?? [])].filter((file) => file.type.startsWith('image/'));
}

/** The picture's own size, when the browser can tell (it reserves the image's place on the page). */
async function naturalSize(file: File): Promise<{ width: number; height: number } | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size.width > 0 && size.height > 0 ? size : null;
  } catch {
    return null;
  }
}

/**
 * After an image goes in, the cursor goes to the line below it (a new one if the image ended the post), so
 * the author types on under the picture; left on the image, the next key would replace it.
 */
function continueBelow(editor: Editor) {
  const { selection, doc } = editor.state;
  if (!(selection instanceof NodeSelection) || selection.node.type.name !== 'image') return;
  const after = selection.to;
  if (doc.resolve(after).nodeAfter?.isTextblock) editor.commands.setTextSelection(after + 1);
  else editor.chain().insertContentAt(after, { type: 'paragraph' }).setTextSelection(after + 1).run();
}

interface Described {
  src: string;
  width?: number;
  height?: number;
  /** Where it goes in the document (a drop's position); the cursor when absent. */
  at?: number;
  /** An image already in the post whose description is being changed. */
  existing?: boolean;
}

const LIMIT_MB = Math.round(IMAGE_UPLOAD_LIMIT / (1024 * 1024));

/**
 * The image tool's state: uploads in progress, the description dialog and problems to show. `upload`
 * is what the toolbar, paste and drop call; `describeSelected` edits the description of a selected image.
 */
export function usePostImages(editor: Editor | null) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [describing, setDescribing] = useState<(Described & { alt: string }) | null>(null);

  const upload = async (file: File, at?: number) => {
    if (file.size > IMAGE_UPLOAD_LIMIT) {
      setProblem(`The image is too large. The limit is ${LIMIT_MB} MB.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const [image, size] = await Promise.all([uploadImage(file), naturalSize(file)]);
      setDescribing({ src: image.url, ...size, at, alt: '' });
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const describeSelected = () => {
    if (!editor?.isActive('image')) return false;
    const attrs = editor.getAttributes('image') as { src: string; alt?: string | null };
    setDescribing({ src: attrs.src, alt: attrs.alt ?? '', existing: true });
    return true;
  };

  const place = (alt: string) => {
    if (!editor || !describing) return;
    const { src, width, height, at, existing } = describing;
    if (existing) editor.chain().focus().updateAttributes('image', { alt }).run();
    else {
      const node = { type: 'image', attrs: { src, alt, width: width ?? null, height: height ?? null } };
      const { selection, doc } = editor.state;
      // A selected image (the one just inserted, say) is kept: the new one goes after it, not over it.
      const target = at ?? (selection instanceof NodeSelection ? selection.to : undefined);
      const chain = editor.chain().focus();
      // The author may have typed while it uploaded: a drop's place past the end becomes the end.
      (target === undefined ? chain.insertContent(node) : chain.insertContentAt(Math.min(target, doc.content.size), node)).run();
      continueBelow(editor);
    }
    setDescribing(null);
  };

  return { busy, problem, dismissProblem: () => setProblem(null), describing, upload, describeSelected, place, cancel: () => setDescribing(null) };
}

type DescribedImage = { src: string; alt: string; existing?: boolean };

/** The dialog that asks for the image's description (its alt text) before it goes into the post. */
export function DescribeImageDialog({
  image,
  onPlace,
  onCancel,
}: {
  image: DescribedImage | null;
  onPlace: (alt: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  return (
    <Dialog open={image !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <DialogContent aria-describedby={`${id}-hint`}>
        {/* Keyed by image: each one starts from its own description (empty for a fresh upload). */}
        {image ? <DescribeImageForm key={image.src} id={id} image={image} onPlace={onPlace} onCancel={onCancel} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function DescribeImageForm({ id, image, onPlace, onCancel }: { id: string; image: DescribedImage; onPlace: (alt: string) => void; onCancel: () => void }) {
  const [alt, setAlt] = useState(image.alt);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The dialog renders outside the post form on the page, but React still passes its submit up to it.
    event.stopPropagation();
    const text = alt.trim();
    if (!text) {
      setError('Describe the image for readers who cannot see it.');
      return;
    }
    onPlace(text);
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{image.existing ? 'Image description' : 'Describe the image'}</DialogTitle>
        <DialogDescription id={`${id}-hint`}>
          Readers using a screen reader hear this instead of seeing the picture. Say what it shows.
        </DialogDescription>
      </DialogHeader>
      <img src={image.src} alt="" className="max-h-48 w-full rounded-md border border-ink-700 bg-ink-950 object-contain" />
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-alt`} className="text-sm font-medium text-bone-100">
          Image description (alt text)
        </label>
        <Input
          id={`${id}-alt`}
          value={alt}
          autoFocus
          maxLength={300}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-alt-error` : undefined}
          placeholder="For example: The lighthouse at Ashby Point in a storm"
          onChange={(e) => setAlt(e.target.value)}
        />
        {error ? (
          <p id={`${id}-alt-error`} className="text-sm text-blood-300">
            {error}
          </p>
        ) : null}
      </div>
      <DialogFooter>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">{image.existing ? 'Save description' : 'Insert image'}</Button>
      </DialogFooter>
    </form>
  );
}
