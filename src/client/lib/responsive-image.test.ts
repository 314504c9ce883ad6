import { describe, expect, it } from 'vitest';
import { responsiveImage } from './responsive-image';

describe('responsiveImage', () => {
  it('offers the AVIF renderings of the site artwork with the sizes it is drawn at', () => {
    const image = responsiveImage('/images/covers/what-we-owe-the-dead-front.svg', '18rem');
    expect(image.sizes).toBe('18rem');
    expect(image.src).toMatch(/^\/images\/covers\/what-we-owe-the-dead-front-\d+\.avif$/);
    const candidates = image.srcSet!.split(', ').map((c) => c.split(' '));
    expect(candidates.length).toBeGreaterThan(2);
    for (const [url, width] of candidates) expect(url).toBe(`/images/covers/what-we-owe-the-dead-front-${width.replace('w', '')}.avif`);
  });

  it('keeps any other address as it is', () => {
    expect(responsiveImage('/files/images/upload-1.jpg', '18rem')).toEqual({ src: '/files/images/upload-1.jpg' });
    expect(responsiveImage('https://example.org/cover.png', '18rem')).toEqual({ src: 'https://example.org/cover.png' });
  });
});

describe('the renderings on disk', () => {
  it('exist for every entry, so a changed master cannot ship without them', async () => {
    const fs = await import('node:fs');
    const table = (await import('./image-variants.json')).default as Record<string, { variants: { src: string }[] }>;
    for (const [master, entry] of Object.entries(table)) {
      expect(fs.existsSync(`public${master}`), master).toBe(true);
      for (const v of entry.variants) expect(fs.existsSync(`public${v.src}`), v.src).toBe(true);
    }
  });
});
