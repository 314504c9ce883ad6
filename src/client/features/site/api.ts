/** GET /api/site: the home page's content in one read (cached for the session, the default reads of docs/PRODUCT.md, Requests). */
import { useQuery } from '@tanstack/react-query';
import type { SiteAnswer } from '@shared/schemas/site';

export const SITE_QUERY_KEY = ['/api/site'] as const;

export function useSite() {
  return useQuery<SiteAnswer>({ queryKey: SITE_QUERY_KEY });
}
