/**
 * /blog and /blog/page/{n}: one page of the published posts, newest first (docs/PRODUCT.md, Blog list), with links to
 * the newer and older pages (ADR 0067). A page past the last is the not-found page, as the server answers it.
 */
import { PageShell } from '@client/components/layout/page-shell';
import { Skeleton } from '@client/components/ui/skeleton';
import { Alert } from '@client/components/ui/alert';
import { useBlogPage } from '@client/features/blog/api';
import { PageLinks } from '@client/features/blog/components/page-links';
import { PostCard } from '@client/features/blog/components/post-card';
import { useParams } from '@client/lib/router';
import { useDocumentTitle } from '@client/lib/use-document-title';
import NotFoundPage from './not-found';

/** The page number in the path: /blog is page 1; anything but a plain number from 2 names no page. */
function pageFromParam(param: string | undefined): number | null {
  if (param === undefined) return 1;
  return /^[1-9]\d{0,5}$/.test(param) && Number(param) >= 2 ? Number(param) : null;
}

export default function BlogListPage() {
  const number = pageFromParam(useParams().page);
  if (number === null) return <NotFoundPage />;
  return <BlogListPageN number={number} />;
}

/**
 * "No such page": a 404 from a fetch, or the one the server embedded in the page (kept there as the error
 * message every failed read has, "404: {body}", docs/PRODUCT.md, Error messages).
 */
const isMissingPage = (error: Error | null) => error !== null && /^404: /.test(error.message);

function BlogListPageN({ number }: { number: number }) {
  const page = useBlogPage(number);
  useDocumentTitle(number > 1 ? `Blog, page ${number}` : 'Blog');
  if (isMissingPage(page.error)) return <NotFoundPage />;
  return (
    <PageShell
      eyebrow="Notes from the desk"
      title="Blog"
      intro="Thoughts on writing, the craft of suspense, and the stories behind the novels: research trips, early drafts, and news of what comes next."
      width="wide"
    >
      {page.isPending ? (
        <div role="status" aria-label="Loading posts" className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-72 w-full" />
          ))}
        </div>
      ) : page.isError ? (
        <Alert variant="destructive" title="Could not load the blog">
          Please refresh the page and try again.
        </Alert>
      ) : page.data.posts.length === 0 ? (
        <p className="rounded-xl border border-dashed border-ink-600 p-10 text-center text-bone-300">No blog posts available</p>
      ) : (
        <>
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {page.data.posts.map((post) => (
              <li key={post.id} className="flex">
                <PostCard post={post} />
              </li>
            ))}
          </ul>
          <PageLinks page={page.data} />
        </>
      )}
    </PageShell>
  );
}
