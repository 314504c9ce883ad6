import type { FastifyInstance } from 'fastify';
import { formatPrice } from '@shared/constants';
import { getPreOrderArea } from './service';

/**
 * The upcoming book's schema.org Book while it is sold ahead of (or after) its release: its offers say
 * PreOrder with availabilityStarts until the release moment, then InStock. The page holding it is cached;
 * the release job clears the cache at that moment.
 */
export async function preOrderJsonLd(app: FastifyInstance): Promise<object[]> {
  const area = await getPreOrderArea(app.deps.database.db, app.deps.clock.now());
  if (!area) return [];
  const { publicUrl } = app.deps.config;
  const url = new URL('/#upcoming', publicUrl).toString();
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Book',
      '@id': `${url}-book`,
      name: area.book.title,
      url,
      offers: area.formats.map((f) => ({
        '@type': 'Offer',
        name: f.title,
        price: (f.price / 100).toFixed(2),
        priceCurrency: 'GBP',
        availability: area.released ? 'https://schema.org/InStock' : 'https://schema.org/PreOrder',
        ...(area.released ? {} : { availabilityStarts: area.releaseAt }),
        url,
        itemCondition: 'https://schema.org/NewCondition',
        description: `${f.title}, ${formatPrice(f.price)}`,
      })),
    },
  ];
}
