/** /blog: every published post, newest first (SPEC 2 "Blog"). */
import { PageShell } from '@client/components/layout/page-shell';
import { Skeleton } from '@client/components/ui/skeleton';
import { Alert } from '@client/components/ui/alert';
import { useBlogPosts } from '@client/features/blog/api';
import { PostCard } from '@client/features/blog/components/post-card';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function BlogListPage() {
  useDocumentTitle('Blog');
  const posts = useBlogPosts();
  return (
    <PageShell
      eyebrow="Notes from the desk"
      title="Blog"
      intro="Thoughts on writing, the craft of suspense, and the stories behind the novels: research trips, early drafts, and news of what comes next."
      width="wide"
    >
      {posts.isPending ? (
        <div role="status" aria-label="Loading posts" className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-72 w-full" />
          ))}
        </div>
      ) : posts.isError ? (
        <Alert variant="destructive" title="Could not load the blog">
          Please refresh the page and try again.
        </Alert>
      ) : posts.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-ink-600 p-10 text-center text-bone-300">No blog posts available</p>
      ) : (
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {posts.data.map((post) => (
            <li key={post.id} className="flex">
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      )}
    </PageShell>
  );
}
