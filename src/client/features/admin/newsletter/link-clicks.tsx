/** A sent broadcast's clicks per link (decision 0090). */
import type { Broadcast } from '@shared/schemas/broadcasts';
import { formatCount } from '@client/lib/format';

export function LinkClicks({ links }: { links: Broadcast['links'] }) {
  return (
    <section className="grid gap-2" aria-labelledby="broadcast-clicks-heading">
      <h2 id="broadcast-clicks-heading" className="font-display text-lg text-bone-50">
        Clicks per link
      </h2>
      {links.length === 0 ? (
        <p className="text-sm text-bone-300">This mail has no links to follow.</p>
      ) : (
        <table className="w-full text-left text-sm text-bone-200">
          <thead>
            <tr className="text-bone-400">
              <th scope="col" className="py-1 pr-4 font-normal">
                Link
              </th>
              <th scope="col" className="py-1 text-right font-normal">
                Clicks
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.url} className="border-t border-ink-700">
                <td className="break-all py-1 pr-4">{link.url}</td>
                <td className="py-1 text-right text-bone-50">{formatCount(link.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
