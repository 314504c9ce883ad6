/** A book's front cover, drawn at the size it is shown, with the shadow of a book standing on a shelf. */
import { responsiveImage } from '@client/lib/responsive-image';
import { cn } from '@client/lib/cn';

export function BookCover({ src, title, sizes, className, eager = false }: { src: string; title: string; sizes: string; className?: string; eager?: boolean }) {
  return (
    <img
      {...responsiveImage(src, sizes)}
      alt={`Front cover of ${title}`}
      width={400}
      height={600}
      loading={eager ? undefined : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      className={cn('aspect-[2/3] w-full rounded-r-md rounded-l-sm object-cover shadow-[16px_22px_44px_rgb(0_0_0/0.7)] ring-1 ring-ink-700', className)}
    />
  );
}
