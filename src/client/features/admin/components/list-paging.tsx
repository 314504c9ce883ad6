/** The search box and "Show more" of the admin lists that come in keyset pages (decision 0071). */
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';

export function ListSearch({ id, label, onSearch }: { id: string; label: string; onSearch: (q: string) => void }) {
  const [search, setSearch] = useState('');
  return (
    <form
      className="mb-4 flex items-end gap-2"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(search.trim());
      }}
    >
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <Input id={id} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <Button type="submit" variant="outline">Search</Button>
    </form>
  );
}

interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

export function ShowMore({ pages }: { pages: Pages }) {
  if (!pages.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
        {pages.isFetchingNextPage ? 'Loading...' : 'Show more'}
      </Button>
    </div>
  );
}
