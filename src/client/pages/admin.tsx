/** /admin: the guarded admin area; links to the admin functions. */
import { Link } from 'react-router';
import { BookPlus, LayoutDashboard } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { buttonClasses } from '@client/components/ui/button';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function AdminPage() {
  useDocumentTitle('Admin');
  return (
    <PageShell width="wide" eyebrow="Admin" title="Admin">
      <div className="flex flex-wrap gap-3">
        <Link to="/dashboard" className={buttonClasses('primary')}>
          <LayoutDashboard aria-hidden="true" />
          Author Dashboard
        </Link>
        <Link to="/admin/books/create" className={buttonClasses('outline')}>
          <BookPlus aria-hidden="true" />
          Add New Book
        </Link>
      </div>
    </PageShell>
  );
}
