import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';

/**
 * A list a page at a time (decision 0071): each "Show more" asks for the rows after the last one shown.
 * `filters` (a search, a filter) go with every page; an empty one is left out.
 */
export function useKeysetPages<P extends { nextCursor: string | null }>(path: string, filters: Record<string, string> = {}) {
  return useInfiniteQuery({
    queryKey: [path, filters],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
      if (pageParam) params.set('after', pageParam);
      return apiRequest('GET', `${path}?${params}`, undefined, { signal }).then((res) => res.json() as Promise<P>);
    },
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });
}
