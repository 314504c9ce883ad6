/** "Export CSV" on an admin list: the server writes the file as it reads it (decision 0071), the browser saves it. */
import { useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { downloadCsv } from '@client/features/admin/api';
import { errorText } from '@client/lib/api-errors';

/** `url` is the export with the list's search and filters, so the file holds what the list shows. */
export function ExportCsvButton({ url }: { url: string }) {
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadCsv(url);
    } catch (error) {
      toast({ title: 'Export failed', description: errorText(error), variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button size="sm" onClick={exportCsv} disabled={exporting}>
      <Download aria-hidden="true" />
      {exporting ? 'Exporting...' : 'Export CSV'}
    </Button>
  );
}

/** The export's address with the list's search and filters (empty ones left out). */
export function exportUrl(path: string, filters: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') params.set(k, String(v));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
