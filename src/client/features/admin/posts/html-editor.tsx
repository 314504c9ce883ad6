/**
 * A small HTML editor: a textarea with buttons that wrap the selection in editorial tags, and a live
 * preview cleaned by DOMPurify. The server sanitizes again on save, so the preview is a courtesy.
 */
import { useMemo, useRef, useState } from 'react';
import DOMPurify from 'dompurify';
import { Bold, Heading2, Italic, Link2, List, Quote } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Textarea } from '@client/components/ui/textarea';
import { Tooltip, TooltipGroup } from '@client/components/ui/tooltip';

interface Props {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string;
}

const TOOLS = [
  { label: 'Bold', icon: Bold, before: '<strong>', after: '</strong>' },
  { label: 'Italic', icon: Italic, before: '<em>', after: '</em>' },
  { label: 'Heading', icon: Heading2, before: '<h2>', after: '</h2>' },
  { label: 'Quote', icon: Quote, before: '<blockquote>', after: '</blockquote>' },
  { label: 'List', icon: List, before: '<ul>\n<li>', after: '</li>\n</ul>' },
  { label: 'Link', icon: Link2, before: '<a href="https://">', after: '</a>' },
] as const;

export function HtmlEditor({ id, value, onChange, invalid, describedBy }: Props) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [preview, setPreview] = useState(false);
  const clean = useMemo(() => (preview ? DOMPurify.sanitize(value) : ''), [preview, value]);

  const wrap = (before: string, after: string) => {
    const el = ref.current;
    if (!el) return;
    const { selectionStart: start, selectionEnd: end } = el;
    const next = value.slice(0, start) + before + value.slice(start, end) + after + value.slice(end);
    onChange(next);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(start + before.length, end + before.length);
    });
  };

  return (
    <div className="grid gap-2">
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1">
        <TooltipGroup>
          {TOOLS.map(({ label, icon: Icon, before, after }) => (
            <Tooltip key={label} content={label}>
              <Button size="sm" variant="ghost" aria-label={label} disabled={preview} onClick={() => wrap(before, after)}>
                <Icon aria-hidden="true" />
              </Button>
            </Tooltip>
          ))}
        </TooltipGroup>
        <Button size="sm" variant="outline" className="ml-auto" aria-pressed={preview} onClick={() => setPreview((p) => !p)}>
          {preview ? 'Edit HTML' : 'Preview'}
        </Button>
      </div>
      {preview ? (
        <div
          className="prose-post min-h-64 rounded-md border border-ink-600 bg-ink-950/60 p-4 text-bone-100 [&_a]:text-blood-300 [&_blockquote]:border-l-2 [&_blockquote]:border-blood-500 [&_blockquote]:pl-4 [&_h2]:mt-4 [&_h2]:font-display [&_h2]:text-2xl [&_li]:ml-5 [&_li]:list-disc [&_p]:my-3"
          // Cleaned by DOMPurify above.
          dangerouslySetInnerHTML={{ __html: clean }}
        />
      ) : (
        <Textarea
          id={id}
          ref={ref}
          rows={16}
          className="font-mono"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        />
      )}
    </div>
  );
}
