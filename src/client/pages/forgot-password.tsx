/** /forgot-password: placeholder shell until the auth pages land. */
import { PageShell } from '@client/components/layout/page-shell';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  return <PageShell width="narrow" eyebrow="Account" title="Forgot Password" />;
}
