/**
 * docs/PRODUCT.md, Head tags: the home page sets its title, description, keywords and social-card tags while it is shown,
 * and restores the default title (and whatever tags were there) when the reader leaves.
 */
import { useEffect } from 'react';
import { DEFAULT_TITLE } from '@client/lib/site';

export interface HeadMeta {
  title: string;
  description: string;
  keywords: string;
  image: string;
  url: string;
}

type MetaKey = { attr: 'name' | 'property'; key: string };

function upsertMeta({ attr, key }: MetaKey, content: string): () => void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  const created = !el;
  const previous = el?.getAttribute('content') ?? null;
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.setAttribute('content', content);
  const node = el;
  return () => {
    if (created) node.remove();
    else if (previous !== null) node.setAttribute('content', previous);
  };
}

/** `image` and `url` may be paths; the tags carry them as absolute addresses. */
export function applyHead(input: HeadMeta): () => void {
  const meta = {
    ...input,
    image: new URL(input.image, window.location.origin).toString(),
    url: new URL(input.url, window.location.origin).toString(),
  };
  document.title = meta.title;
  const restores = [
    upsertMeta({ attr: 'name', key: 'description' }, meta.description),
    upsertMeta({ attr: 'name', key: 'keywords' }, meta.keywords),
    upsertMeta({ attr: 'property', key: 'og:title' }, meta.title),
    upsertMeta({ attr: 'property', key: 'og:description' }, meta.description),
    upsertMeta({ attr: 'property', key: 'og:image' }, meta.image),
    upsertMeta({ attr: 'property', key: 'og:url' }, meta.url),
    upsertMeta({ attr: 'property', key: 'og:type' }, 'book'),
    upsertMeta({ attr: 'name', key: 'twitter:card' }, 'summary_large_image'),
    upsertMeta({ attr: 'name', key: 'twitter:title' }, meta.title),
    upsertMeta({ attr: 'name', key: 'twitter:description' }, meta.description),
    upsertMeta({ attr: 'name', key: 'twitter:image' }, meta.image),
  ];
  return () => {
    restores.forEach((restore) => restore());
    document.title = DEFAULT_TITLE;
  };
}

export function useHomeHead(meta: HeadMeta | null): void {
  // The serialized form stands for the object, which the caller rebuilds on every render.
  const key = meta ? JSON.stringify(meta) : '';
  useEffect(() => {
    if (!key) return undefined;
    return applyHead(JSON.parse(key) as HeadMeta);
  }, [key]);
}
