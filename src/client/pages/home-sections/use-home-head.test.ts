import { DEFAULT_TITLE } from '@client/lib/site';
import { applyHead } from './use-home-head';

const meta = (sel: string) => document.head.querySelector(sel)?.getAttribute('content');

describe('home head tags', () => {
  it('sets title, description, keywords and the social card, then restores what was there', () => {
    document.title = DEFAULT_TITLE;
    const description = document.createElement('meta');
    description.setAttribute('name', 'description');
    description.setAttribute('content', 'default description');
    document.head.appendChild(description);

    const restore = applyHead({
      title: 'What We Owe the Dead | Callum Reyes',
      description: 'A thriller.',
      keywords: 'thriller, novel',
      image: 'https://site.test/images/og-image.png',
      url: 'https://site.test/',
    });
    expect(document.title).toBe('What We Owe the Dead | Callum Reyes');
    expect(meta('meta[name="description"]')).toBe('A thriller.');
    expect(meta('meta[name="keywords"]')).toBe('thriller, novel');
    expect(meta('meta[property="og:title"]')).toBe('What We Owe the Dead | Callum Reyes');
    expect(meta('meta[property="og:image"]')).toBe('https://site.test/images/og-image.png');
    expect(meta('meta[property="og:url"]')).toBe('https://site.test/');
    expect(meta('meta[name="twitter:card"]')).toBe('summary_large_image');

    document.title = 'changed meanwhile';
    restore();
    expect(document.title).toBe(DEFAULT_TITLE);
    expect(meta('meta[name="description"]')).toBe('default description');
    expect(document.head.querySelector('meta[name="keywords"]')).toBeNull();
    expect(document.head.querySelector('meta[property="og:title"]')).toBeNull();
  });
});
