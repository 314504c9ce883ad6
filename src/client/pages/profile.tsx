/** /profile ("My Account"): placeholder shell until the account feature lands. */
import { PageShell } from '@client/components/layout/page-shell';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function ProfilePage() {
  useDocumentTitle('My Account');
  return <PageShell eyebrow="Account" title="My Account" />;
}
