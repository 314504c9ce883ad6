/**
 * The <img> attributes for a picture the site may hold in several sizes. The site's own artwork (SVG
 * masters in public/images) has AVIF renderings at several widths (scripts/render-images.mjs), so the
 * browser downloads the size it shows and never rasterises the SVG on the main thread. Any other address
 * (an uploaded image, an external URL) is used as it is.
 */
import variants from './image-variants.json';

interface Variant {
  width: number;
  src: string;
}

const table: Record<string, { width: number; height: number; variants: Variant[] } | undefined> = variants;

export interface ResponsiveImage {
  src: string;
  srcSet?: string;
  sizes?: string;
}

/** `sizes` says how wide the picture is drawn, as in the HTML attribute (e.g. "(min-width: 640px) 20rem, 18rem"). */
export function responsiveImage(src: string, sizes: string): ResponsiveImage {
  const entry = table[src];
  if (!entry || entry.variants.length === 0) return { src };
  // The fallback `src` (for a browser without srcset) is a middle size: sharp on a phone, light on a desktop.
  const fallback = entry.variants[Math.floor(entry.variants.length / 2)];
  return {
    src: fallback.src,
    srcSet: entry.variants.map((v) => `${v.src} ${v.width}w`).join(', '),
    sizes,
  };
}
