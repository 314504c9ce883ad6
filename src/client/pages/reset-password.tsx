/** /reset-password: placeholder shell until the auth pages land (token and email in the query). */
import { PageShell } from '@client/components/layout/page-shell';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function ResetPasswordPage() {
  useDocumentTitle('Reset Password');
  return <PageShell width="narrow" eyebrow="Account" title="Reset Password" />;
}
