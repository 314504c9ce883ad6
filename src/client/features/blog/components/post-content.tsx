/**
 * Renders a post's HTML. The server already sanitized it when it was stored and when it was served;
 * DOMPurify cleans it once more in the browser (a script in a post never runs). DOMPurify is loaded
 * only here, so it stays out of the home page's bundle. A page rendered on the server shows the
 * server's sanitized HTML at once (the browser has already parsed it), and hydration keeps it until
 * DOMPurify has had its pass, so the text never blinks to a placeholder.
 */
import { useEffect, useState } from 'react';
import { Skeleton } from '@client/components/ui/skeleton';
import { useIsHydrating } from '@client/lib/hydration';

const PROSE =
  'max-w-none text-lg leading-[1.85] text-bone-200 ' +
  '[&_p]:my-5 [&_h2]:mt-12 [&_h2]:mb-4 [&_h2]:font-display [&_h2]:text-3xl [&_h2]:font-semibold [&_h2]:text-bone-50 ' +
  '[&_h3]:mt-10 [&_h3]:mb-3 [&_h3]:font-display [&_h3]:text-2xl [&_h3]:text-bone-50 ' +
  '[&_a]:text-blood-300 [&_a]:underline [&_a]:decoration-blood-500/60 [&_a]:underline-offset-4 hover:[&_a]:text-bone-50 ' +
  '[&_strong]:font-semibold [&_strong]:text-bone-50 [&_em]:italic ' +
  '[&_ul]:my-6 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:my-6 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_li]:marker:text-blood-400 ' +
  '[&_blockquote]:my-8 [&_blockquote]:border-l-2 [&_blockquote]:border-blood-600 [&_blockquote]:pl-6 [&_blockquote]:font-display [&_blockquote]:text-xl [&_blockquote]:text-bone-100 [&_blockquote]:italic ' +
  '[&_img]:mx-auto [&_img]:my-8 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg [&_hr]:my-10 [&_hr]:border-ink-700';

export function PostContent({ html }: { html: string }) {
  const hydrating = useIsHydrating();
  const [clean, setClean] = useState<string | null>(() => (hydrating ? html : null));
  useEffect(() => {
    let live = true;
    void import('dompurify').then(({ default: DOMPurify }) => {
      if (!live) return;
      setClean(DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'iframe'], FORBID_ATTR: ['style'] }));
    });
    return () => {
      live = false;
    };
  }, [html]);

  if (clean === null) {
    return (
      <div className="space-y-4" aria-hidden="true">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-5 w-full" />
        ))}
      </div>
    );
  }
  return <div className={PROSE} data-testid="post-content" dangerouslySetInnerHTML={{ __html: clean }} />;
}
