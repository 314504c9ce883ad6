/** /admin/books/create and /admin/books/edit/:id: placeholder shell until the admin feature lands. */
import { Link } from 'react-router';
import { PageShell } from '@client/components/layout/page-shell';
import { buttonClasses } from '@client/components/ui/button';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function AdminBookFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const heading = mode === 'create' ? 'Add New Book' : 'Edit Book';
  useDocumentTitle(heading);
  return (
    <PageShell width="narrow" eyebrow="Admin" title={heading}>
      <Link to="/admin" className={buttonClasses('outline')}>
        Cancel
      </Link>
    </PageShell>
  );
}
