/** /blog: placeholder shell until the blog feature lands (list of static posts). */
import { PageShell } from '@client/components/layout/page-shell';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function BlogListPage() {
  useDocumentTitle('Blog');
  return (
    <PageShell
      eyebrow="Notes from the desk"
      title="Blog"
      intro="Thoughts on writing, the craft of suspense, and the stories behind the novels."
      width="wide"
    />
  );
}
