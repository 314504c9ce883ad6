/**
 * A cover image chosen by uploading a file (never typed): a preview of the current image, a button to
 * upload or replace it, and, for optional images, Remove. The server checks the bytes; this only spares
 * the author a wait for a file that is plainly too large.
 */
import { useId, useState } from 'react';
import { ImageIcon, ImageUp, Trash2 } from 'lucide-react';
import { IMAGE_ACCEPT, IMAGE_UPLOAD_LIMIT } from '@shared/schemas/admin';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/cn';
import { uploadImage } from '../api';
import { errorText } from '@client/lib/api-errors';

export interface ImageUploadFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (url: string) => void;
  /** Validation message from the form. */
  error?: string;
  /** Optional images can be removed. */
  optional?: boolean;
  /** Preview proportions: a book cover is 2:3, a post cover wide. */
  shape?: 'cover' | 'wide';
}

export function ImageUploadField({ id, label, value, onChange, error, optional, shape = 'cover' }: ImageUploadFieldProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const statusId = useId();
  const message = problem ?? error;

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (file.size > IMAGE_UPLOAD_LIMIT) {
      setProblem(`The image is too large. The limit is ${Math.round(IMAGE_UPLOAD_LIMIT / (1024 * 1024))} MB.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const image = await uploadImage(file);
      onChange(image.url);
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="grid gap-2" aria-describedby={message ? `${id}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium text-bone-100">{label}</legend>
      <div className="flex flex-wrap items-start gap-4">
        <div
          className={cn(
            'flex shrink-0 items-center justify-center overflow-hidden rounded-md border border-ink-600 bg-ink-950/60',
            shape === 'cover' ? 'h-36 w-24' : 'h-28 w-48',
          )}
        >
          {value ? (
            <img src={value} alt={`${label}: preview`} className="size-full object-cover" />
          ) : (
            <span className="grid justify-items-center gap-1 text-xs text-bone-400">
              <ImageIcon aria-hidden="true" className="size-6" />
              No image yet
            </span>
          )}
        </div>
        <div className="grid min-w-0 gap-2">
          <label
            htmlFor={id}
            className="inline-flex w-fit cursor-pointer items-center gap-2 rounded-md border border-bone-300/40 px-3 py-1.5 text-sm text-bone-100 hover:bg-bone-50/5 focus-within:ring-2 focus-within:ring-blood-400"
          >
            <ImageUp aria-hidden="true" className="size-4" />
            {busy ? 'Uploading...' : value ? 'Replace image' : 'Upload image'}
            <input
              id={id}
              type="file"
              accept={IMAGE_ACCEPT}
              className="sr-only"
              disabled={busy}
              aria-invalid={message ? true : undefined}
              aria-describedby={message ? `${id}-error` : statusId}
              onChange={(e) => void onFile(e.target)}
            />
          </label>
          <p id={statusId} className="text-xs break-all text-bone-400">
            {value ? value : `PNG, JPEG, WebP or AVIF, up to ${Math.round(IMAGE_UPLOAD_LIMIT / (1024 * 1024))} MB`}
          </p>
          {optional && value ? (
            <Button size="sm" variant="ghost" className="w-fit" onClick={() => onChange('')}>
              <Trash2 aria-hidden="true" />
              Remove image
            </Button>
          ) : null}
        </div>
      </div>
      {message ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-blood-300">
          {message}
        </p>
      ) : null}
    </fieldset>
  );
}
