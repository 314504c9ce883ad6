/** /admin: the admin hub (guarded by the server's admin check), linking to every admin page. */
import { Link } from '@client/lib/router';
import type { LucideIcon } from 'lucide-react';
import { Activity, BookPlus, Gift, FileAudio, Fingerprint, History, Landmark, LayoutDashboard, Layers, Mail, MessageSquareQuote, Newspaper, Pencil, Send, Settings, Truck, ShoppingBag, TicketPercent, UserRound, Users } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { Badge } from '@client/components/ui/badge';
import { buttonClasses } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useAudit, useBooks, useUnreadCount } from '@client/features/admin/api';
import { describeAuditEntry } from '@client/features/admin/audit/describe';
import { formatDateTime } from '@client/lib/format';

interface HubLink {
  to: string;
  title: string;
  text: string;
  icon: LucideIcon;
}

const LINKS: HubLink[] = [
  { to: '/dashboard', title: 'Author Dashboard', text: 'Sales, readers and content at a glance.', icon: LayoutDashboard },
  { to: '/admin/books/create', title: 'Add New Book', text: 'Add a title; feature it to put it on sale.', icon: BookPlus },
  { to: '/admin/posts', title: 'Blog Posts', text: 'Write, edit, publish and unpublish posts.', icon: Newspaper },
  { to: '/admin/files', title: 'Digital Files', text: 'Upload or replace the e-book, PDF and audiobook.', icon: FileAudio },
  { to: '/admin/orders', title: 'Orders', text: 'Every purchase; ship copies, reset downloads, refund.', icon: ShoppingBag },
  { to: '/admin/discounts', title: 'Discount Codes', text: 'Codes for launches and readers: percentage or amount off.', icon: TicketPercent },
  { to: '/admin/bundles', title: 'Bundles', text: 'Formats sold together at one price; readers who own part pay the rest.', icon: Layers },
  { to: '/admin/free-book', title: 'Free book', text: 'A book for new subscribers at /free/{slug}; claims per source and later buyers.', icon: Gift },
  { to: '/admin/tax', title: 'Tax', text: 'Whether prices include tax, rates per country and format, the tax report.', icon: Landmark },
  { to: '/admin/shipping', title: 'Shipping', text: 'Zones printed books ship to, their prices and free-shipping thresholds.', icon: Truck },
  { to: '/admin/trace', title: 'Trace a Copy', text: 'Find which purchase a shared e-book or PDF came from.', icon: Fingerprint },
  { to: '/admin/messages', title: 'Messages', text: 'The contact inbox.', icon: Mail },
  { to: '/admin/reviews', title: 'Reviews', text: 'Approve, hide or answer reviews by readers who own the book.', icon: MessageSquareQuote },
  { to: '/admin/newsletter', title: 'Newsletter', text: 'Write broadcasts to subscribers; the suppression list.', icon: Send },
  { to: '/admin/subscribers', title: 'Subscribers', text: 'The Thriller Circle list and its CSV export.', icon: Users },
  { to: '/admin/users', title: 'Users', text: 'Reader accounts and their roles.', icon: UserRound },
  { to: '/admin/settings', title: 'Site Settings', text: 'Author bio, publisher, agent, social links, teaser.', icon: Settings },
  { to: '/admin/system', title: 'System', text: 'Health, mail outbox, jobs, payments reconciliation.', icon: Activity },
];

export default function AdminPage() {
  useDocumentTitle('Admin');
  const books = useBooks();
  const unread = useUnreadCount();
  const audit = useAudit();
  const bookTitles = new Map((books.data ?? []).map((b) => [b.id, b.title]));
  return (
    <PageShell width="wide" eyebrow="Admin" title="Admin" intro={<p>Everything you need to run the site, in one place.</p>}>
      <nav aria-label="Admin pages">
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {LINKS.map(({ to, title, text, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="group flex h-full gap-4 rounded-xl border border-ink-700 bg-ink-900/80 p-5 shadow-xl shadow-black/30 transition-colors hover:border-blood-500/70 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
              >
                <Icon aria-hidden="true" className="mt-1 size-6 shrink-0 text-blood-400" />
                <span>
                  <span className="flex items-center gap-2 font-display text-lg font-semibold text-bone-50">
                    {title}
                    {to === '/admin/messages' && unread.data ? <Badge variant="accent">{unread.data} unread</Badge> : null}
                  </span>
                  <span className="mt-1 block text-sm text-bone-300">{text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-12 grid gap-6 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="font-display text-xl font-semibold text-bone-50">Books</h2>
          {books.isPending ? (
            <Skeleton className="mt-4 h-24" />
          ) : (
            <ul className="mt-4 divide-y divide-ink-800">
              {(books.data ?? []).map((book) => (
                <li key={book.id} className="flex items-center justify-between gap-3 py-3">
                  <span>
                    <span className="font-medium text-bone-50">{book.title}</span>
                    <span className="block text-sm text-bone-300">
                      {book.yearPublished} · {book.publisher}
                    </span>
                  </span>
                  <span className="flex items-center gap-2">
                    {book.featured ? <Badge variant="accent">Featured</Badge> : null}
                    <Link to={`/admin/books/edit/${book.id}`} className={buttonClasses('outline', 'sm')} aria-label={`Edit ${book.title}`}>
                      <Pencil aria-hidden="true" />
                      Edit
                    </Link>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card className="p-6">
          <h2 className="flex items-center gap-2 font-display text-xl font-semibold text-bone-50">
            <History aria-hidden="true" className="size-5 text-blood-400" />
            Recent changes
          </h2>
          {audit.isPending ? (
            <Skeleton className="mt-4 h-24" />
          ) : audit.data?.length ? (
            <ol className="mt-4 grid gap-2 text-sm">
              {audit.data.slice(0, 8).map((e) => (
                <li key={e.id} className="flex justify-between gap-3 border-b border-ink-800 pb-2">
                  <span className="text-bone-100">
                    {describeAuditEntry(e, bookTitles)}
                    <span className="block text-xs text-bone-400">by {e.actor ?? 'someone no longer registered'}</span>
                  </span>
                  <time dateTime={e.createdAt} className="shrink-0 text-bone-400">
                    {formatDateTime(e.createdAt)}
                  </time>
                </li>
              ))}
            </ol>
          ) : (
            <p className="mt-4 text-sm text-bone-300">No changes recorded yet.</p>
          )}
        </Card>
      </div>
    </PageShell>
  );
}
