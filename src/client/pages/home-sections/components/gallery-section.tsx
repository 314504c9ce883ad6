/** The book cover gallery section (docs/PRODUCT.md, Cover gallery). */
import type { SiteAnswer } from '@shared/schemas/site';
import { Skeleton } from '@client/components/ui/skeleton';
import { CoverGallery } from '@client/features/gallery/components/cover-gallery';
import { HomeSection } from '@client/features/site/components/home-section';

export function GallerySection({ site }: { site: SiteAnswer | undefined }) {
  return (
    <HomeSection id="cover-gallery" eyebrow="Gallery" title="Book Cover Gallery" intro="Three editions, one story: the eBook, the full hardcover jacket and the paperback." band>
      {site ? <CoverGallery covers={site.gallery} /> : <Skeleton className="h-[26rem] w-full" />}
    </HomeSection>
  );
}
