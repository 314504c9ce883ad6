/** /blog/:id: placeholder shell until the blog feature lands (post found by slug). */
import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { buttonClasses } from '@client/components/ui/button';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function BlogPostPage() {
  const { id = '' } = useParams();
  useDocumentTitle('Blog');
  return (
    <PageShell eyebrow="Blog" title={<span className="break-words">{id.replace(/-/g, ' ')}</span>}>
      <Link to="/blog" className={buttonClasses('outline')}>
        <ArrowLeft aria-hidden="true" />
        Back to Blog
      </Link>
    </PageShell>
  );
}
