/** /admin/posts: every blog post, drafts included, with publish / unpublish. */
import { Link } from '@client/lib/router';
import { Eye, EyeOff, Pencil, Plus } from 'lucide-react';
import { Badge } from '@client/components/ui/badge';
import { Button, buttonClasses } from '@client/components/ui/button';
import { toast } from '@client/components/ui/toast-store';
import { usePosts, usePublishPost } from '@client/features/admin/api';
import { AdminFrame, DataTable, EmptyState, QueryState, tableClasses as t } from '@client/features/admin/components/admin-frame';
import { ShowMore } from '@client/features/admin/components/list-paging';
import { formatShortDate } from '@client/lib/format';
import { errorText } from '@client/lib/api-errors';

export default function AdminPostsPage() {
  const posts = usePosts();
  const publish = usePublishPost();
  const rows = posts.data?.pages.flatMap((p) => p.items) ?? [];

  const toggle = async (id: number, title: string, isPublished: boolean) => {
    try {
      await publish.mutateAsync({ id, isPublished });
      toast({ title: isPublished ? 'Post published' : 'Post unpublished', description: title });
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' });
    }
  };

  return (
    <AdminFrame
      title="Blog Posts"
      actions={
        <Link to="/admin/posts/new" className={buttonClasses('primary', 'sm')}>
          <Plus aria-hidden="true" />
          New Post
        </Link>
      }
    >
      <QueryState query={posts}>
        {() =>
          rows.length === 0 ? (
            <EmptyState>No blog posts yet.</EmptyState>
          ) : (
            <>
            <DataTable columns={['Title', 'Status', 'Date', { hidden: 'Actions' }]}>
              {rows.map((post) => (
                <tr key={post.id} className={t.row}>
                  <th scope="row" className={`${t.td} font-medium`}>
                    {post.title}
                    <span className="block text-xs font-normal text-bone-400">/blog/{post.slug}</span>
                  </th>
                  <td className={t.td}>
                    {post.isPublished ? <Badge variant="accent">Published</Badge> : <Badge variant="outline">Draft</Badge>}
                  </td>
                  <td className={`${t.td} whitespace-nowrap text-bone-300`}>{formatShortDate(post.publishedAt)}</td>
                  <td className={`${t.td} whitespace-nowrap text-right`}>
                    <div className="flex justify-end gap-2">
                      <Link to={`/admin/posts/${post.id}/edit`} className={buttonClasses('outline', 'sm')} aria-label={`Edit ${post.title}`}>
                        <Pencil aria-hidden="true" />
                        Edit
                      </Link>
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={publish.isPending}
                        onClick={() => toggle(post.id, post.title, !post.isPublished)}
                        aria-label={`${post.isPublished ? 'Unpublish' : 'Publish'} ${post.title}`}
                      >
                        {post.isPublished ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                        {post.isPublished ? 'Unpublish' : 'Publish'}
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </DataTable>
            <ShowMore pages={posts} />
            </>
          )
        }
      </QueryState>
    </AdminFrame>
  );
}
