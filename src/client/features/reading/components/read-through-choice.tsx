/**
 * Account Details: whether the reader's places count in the author's read-through chart (decision 0089).
 * Only the chapter reached is counted, aggregated with other readers; this turns even that off.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@client/lib/api-client';

const KEY = ['/api/reading/read-through'] as const;

export function ReadThroughChoice() {
  const client = useQueryClient();
  const choice = useQuery<{ counted: boolean }>({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await (await apiFetch('GET', KEY[0], undefined, { signal })).json()) as { counted: boolean },
  });
  const save = useMutation({
    mutationFn: async (counted: boolean) => {
      const res = await apiFetch('PUT', KEY[0], { counted });
      if (!res.ok) throw new Error('Your choice could not be saved. Please try again.');
      return (await res.json()) as { counted: boolean };
    },
    onSuccess: (answer) => client.setQueryData(KEY, answer),
  });
  if (!choice.data) return null;
  return (
    <section aria-labelledby="read-through-choice" className="mt-6 rounded-xl border border-ink-700 bg-ink-900/80 p-5">
      <h2 id="read-through-choice" className="font-display text-xl text-bone-50">
        Reading statistics
      </h2>
      <p className="mt-1 text-sm text-bone-300">
        The author sees how far readers get in each book: the share who reached each chapter, from the places the reader and the player
        save. Counts of fewer than 5 readers are never shown, and no one reader can be seen.
      </p>
      <label className="mt-3 flex items-center gap-3 text-bone-100">
        <input
          type="checkbox"
          className="size-4 accent-blood-500"
          checked={choice.data.counted}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
        />
        Count my reading in these statistics
      </label>
      {save.isError ? (
        <p role="alert" className="mt-2 text-sm text-blood-300">
          {save.error.message}
        </p>
      ) : null}
    </section>
  );
}
