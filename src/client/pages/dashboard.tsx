/** /dashboard: the author's statistics in four tabs (docs/PRODUCT.md, Dashboard), from GET /api/dashboard/stats. */
import { Link } from '@client/lib/router';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import { PageShell } from '@client/components/layout/page-shell';
import { Alert } from '@client/components/ui/alert';
import { Button, buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useDashboardStats } from '@client/features/dashboard/api';
import { formatLongDate } from '@client/lib/format';
import { ApiError } from '@client/lib/api-errors';
import { OverviewTab } from '@client/features/dashboard/overview-tab';
import { SalesTab } from '@client/features/dashboard/sales-tab';
import { ContentTab } from '@client/features/dashboard/content-tab';
import { UsersTab } from '@client/features/dashboard/users-tab';
import { ReadThroughTab } from '@client/features/dashboard/read-through-tab';

export default function DashboardPage() {
  useDocumentTitle('Author Dashboard');
  const query = useDashboardStats();

  return (
    <PageShell
      width="wide"
      eyebrow="Admin"
      title="Author Dashboard"
      intro={<p>Data as of {formatLongDate(new Date())}</p>}
    >
      <div className="mb-6 flex flex-wrap gap-3">
        <Link to="/admin" className={buttonClasses('ghost', 'sm')}>
          <ArrowLeft aria-hidden="true" />
          Admin area
        </Link>
        {query.isSuccess ? (
          <Button variant="ghost" size="sm" onClick={() => query.refetch()} disabled={query.isFetching}>
            <RefreshCw aria-hidden="true" className={query.isFetching ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        ) : null}
      </div>
      {query.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
          <span className="sr-only" role="status">Loading dashboard data</span>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-32" />
          ))}
        </div>
      ) : query.isError ? (
        <div className="grid max-w-xl gap-4">
          <Alert variant="destructive" title="Error">
            Failed to load dashboard data. Please try again later.
            {query.error instanceof ApiError && query.error.code === 'REPORT_TIMEOUT' ? (
              // The database is busy: the figures were stopped rather than holding the site up.
              <span className="mt-1 block">{query.error.serverMessage}</span>
            ) : null}
          </Alert>
          <Button className="w-fit" onClick={() => query.refetch()}>
            Try Again
          </Button>
        </div>
      ) : !query.data ? (
        <Alert>No data available</Alert>
      ) : (
        <Tabs defaultValue="overview">
          <TabsList aria-label="Dashboard sections" className="flex-wrap">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="sales">Sales</TabsTrigger>
            <TabsTrigger value="content">Content</TabsTrigger>
            <TabsTrigger value="users">Users</TabsTrigger>
            <TabsTrigger value="read-through">Read-through</TabsTrigger>
          </TabsList>
          <TabsContent value="overview">
            <OverviewTab stats={query.data} />
          </TabsContent>
          <TabsContent value="sales">
            <SalesTab stats={query.data} />
          </TabsContent>
          <TabsContent value="content">
            <ContentTab stats={query.data} />
          </TabsContent>
          <TabsContent value="read-through">
            <ReadThroughTab />
          </TabsContent>
          <TabsContent value="users">
            <UsersTab stats={query.data} />
          </TabsContent>
        </Tabs>
      )}
    </PageShell>
  );
}
