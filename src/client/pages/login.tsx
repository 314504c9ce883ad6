/** /login: placeholder shell until the auth pages land (Login and Register tabs, SPEC 2). */
import { useSearchParams } from 'react-router';
import { PageShell } from '@client/components/layout/page-shell';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function LoginPage() {
  const [params] = useSearchParams();
  const adminAccess = params.get('returnTo') === 'admin';
  useDocumentTitle(adminAccess ? 'Admin Access' : 'Sign In');
  return <PageShell width="narrow" eyebrow="Account" title={adminAccess ? 'Admin Access' : 'Sign In'} />;
}
