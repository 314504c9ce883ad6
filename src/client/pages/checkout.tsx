/** /checkout: placeholder shell until the checkout feature lands (redirects to payment). */
import { PageShell } from '@client/components/layout/page-shell';
import { Spinner } from '@client/components/ui/spinner';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function CheckoutPage() {
  useDocumentTitle('Checkout');
  return (
    <PageShell width="narrow" eyebrow="Purchase" title="Checkout">
      <Spinner label="Preparing checkout" showLabel />
    </PageShell>
  );
}
