/** Seeding the query cache from the data embedded in a server-rendered page (see shared/initial-data). */
import type { QueryClient } from '@tanstack/react-query';
import { INITIAL_DATA_ID, type InitialEntry } from '@shared/initial-data';

export type { InitialEntry };

/** Puts the entries into the query cache, as if each query had just been answered. */
export function seedQueryCache(client: QueryClient, entries: readonly InitialEntry[]): void {
  for (const entry of entries) {
    if ('data' in entry) {
      client.setQueryData(entry.key, entry.data);
    } else {
      const query = client.getQueryCache().build(client, { queryKey: entry.key });
      query.setState({
        status: 'error',
        error: new Error(entry.error),
        fetchStatus: 'idle',
        errorUpdatedAt: Date.now(),
      });
    }
  }
}

/** The embedded entries, or none when the page was not rendered on the server. */
export function readInitialData(doc: Document): InitialEntry[] {
  const script = doc.getElementById(INITIAL_DATA_ID);
  if (!script?.textContent) return [];
  try {
    return JSON.parse(script.textContent) as InitialEntry[];
  } catch {
    return [];
  }
}
