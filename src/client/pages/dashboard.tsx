/** /dashboard: placeholder shell until the dashboard feature lands (four tabs of statistics). */
import { PageShell } from '@client/components/layout/page-shell';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function DashboardPage() {
  useDocumentTitle('Author Dashboard');
  return <PageShell width="wide" eyebrow="Admin" title="Author Dashboard" />;
}
