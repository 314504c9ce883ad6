/**
 * A post's cover picture, on the post and on its card. Its box is a fixed 16:9 (the picture fills it,
 * cropped if it must), so nothing moves when it arrives: the server-rendered page and the browser draw
 * the same box before a byte of the image is there. The picture repeats the title beside it, so it is
 * described as decoration (empty alt).
 */
import { cn } from '@client/lib/cn';
import { responsiveImage } from '@client/lib/responsive-image';

interface Props {
  src: string;
  /** How wide it is drawn, for the browser to pick a size (as the HTML attribute); `className` sets that width. */
  sizes: string;
  /** The post's own page shows it at once; cards further down the page wait until they are near. */
  priority?: boolean;
  className?: string;
}

export function PostCover({ src, sizes, priority = false, className }: Props) {
  return (
    <img
      {...responsiveImage(src, sizes)}
      alt=""
      width={1200}
      height={675}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
      data-testid="post-cover"
      className={cn('aspect-video bg-ink-800 object-cover', className)}
    />
  );
}
