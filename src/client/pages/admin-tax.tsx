/** /admin/tax: the "Tax" page: whether prices include tax, the rate table, and the tax report with its CSV. */
import { Download } from 'lucide-react';
import { buttonClasses } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { TAX_REPORT_CSV_PATH, useSaveTaxSettings, useTaxReport, useTaxSettings } from '@client/features/admin/tax/api';
import { TaxForm } from '@client/features/admin/tax/tax-form';

export default function AdminTaxPage() {
  const settings = useTaxSettings();
  const report = useTaxReport();
  const save = useSaveTaxSettings();

  return (
    <AdminFrame title="Tax" intro="With Stripe, Stripe Tax sets the rates. With the local provider, these rates apply: one per country and format, and a default for the rest.">
      <section aria-labelledby="tax-rates" className="mb-10 grid gap-3">
        <h2 id="tax-rates" className="font-display text-xl font-semibold text-bone-50">
          Rates
        </h2>
        <QueryState query={settings}>
          {() => (
            <TaxForm
              settings={settings.data!}
              saving={save.isPending}
              onSave={async (input) => {
                const saved = await save.mutateAsync(input);
                toast({ title: 'Tax settings saved', description: `${saved.rates.length} ${saved.rates.length === 1 ? 'rate' : 'rates'}, default ${saved.defaultRate}%.` });
              }}
            />
          )}
        </QueryState>
      </section>
      <section aria-labelledby="tax-report" className="grid gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="tax-report" className="font-display text-xl font-semibold text-bone-50">
            Tax report
          </h2>
          <a href={TAX_REPORT_CSV_PATH} download className={buttonClasses('outline', 'sm')}>
            <Download aria-hidden="true" />
            Download CSV
          </a>
        </div>
        <QueryState query={report}>
          {() =>
            report.data!.rows.length === 0 ? (
              <EmptyState>No taxed sales yet.</EmptyState>
            ) : (
              <DataTable caption="Net and tax per quarter, country and rate" columns={['Quarter', 'Country', 'Rate', 'Net', 'Tax']}>
                {report.data!.rows.map((r) => (
                  <tr key={`${r.quarter}:${r.country}:${r.rate}`} className={t.row}>
                    <td className={t.td}>{r.quarter}</td>
                    <td className={t.td}>{r.country || 'Unknown'}</td>
                    <td className={`${t.td} tabular-nums`}>{r.rate === null ? 'Stripe Tax' : `${r.rate}%`}</td>
                    <td className={`${t.td} tabular-nums`}>{r.displayNet}</td>
                    <td className={`${t.td} tabular-nums`}>{r.displayTax}</td>
                  </tr>
                ))}
                <tr className={`${t.row} font-semibold`}>
                  <td className={t.td} colSpan={3}>
                    Total
                  </td>
                  <td className={`${t.td} tabular-nums`}>{report.data!.displayNet}</td>
                  <td className={`${t.td} tabular-nums`}>{report.data!.displayTax}</td>
                </tr>
              </DataTable>
            )
          }
        </QueryState>
      </section>
    </AdminFrame>
  );
}
