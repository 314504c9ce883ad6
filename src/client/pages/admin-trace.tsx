/** /admin/trace: Trace a Copy. */
import { AdminFrame } from '@client/features/admin/components/admin-frame';
import { TraceForm } from '@client/features/copies/components/trace-form';

export default function AdminTracePage() {
  return (
    <AdminFrame title="Trace a Copy" intro="Found one of your books shared online? Upload it to see which purchase it came from.">
      <TraceForm />
    </AdminFrame>
  );
}
