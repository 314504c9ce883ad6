/** /blog/:id: one post found by slug (docs/PRODUCT.md, Blog post), or the "Error Loading Blog Post" state. */
import { useEffect } from 'react';
import { Link, useParams } from '@client/lib/router';
import { ArrowLeft, BookMarked, CalendarDays } from 'lucide-react';
import { buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/toast-store';
import { formatPostDate, useBlogPost } from '@client/features/blog/api';
import { PostContent } from '@client/features/blog/components/post-content';
import { PostCover } from '@client/features/blog/components/post-cover';
import { ShareControl } from '@client/features/sharing/components/share-control';
import { useDocumentTitle } from '@client/lib/use-document-title';

function BackToBlog() {
  return (
    <Link to="/blog" className={buttonClasses('outline')}>
      <ArrowLeft aria-hidden="true" />
      Back to Blog
    </Link>
  );
}

export default function BlogPostPage() {
  const { id = '' } = useParams();
  const post = useBlogPost(id);
  useDocumentTitle(post.data?.title ?? (post.isError ? 'Blog Post Not Found' : 'Blog'));

  useEffect(() => {
    if (!id) toast({ title: 'Invalid blog post URL', variant: 'destructive' });
  }, [id]);

  if (!id || post.isError) {
    return (
      <div className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center px-4 py-20 text-center">
        <h1 className="font-display text-3xl font-semibold text-bone-50 md:text-4xl">Error Loading Blog Post</h1>
        <p className="mt-4 text-lg text-bone-300">We couldn't find the blog post you're looking for.</p>
        <div className="mt-8">
          <BackToBlog />
        </div>
      </div>
    );
  }

  if (post.isPending) {
    return (
      <div role="status" aria-label="Loading the post" className="mx-auto max-w-3xl space-y-5 px-4 py-20 sm:px-6">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-2/3" />
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-5 w-full" />
        ))}
      </div>
    );
  }

  const data = post.data;
  return (
    <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6 md:py-20">
      <Link to="/blog" className="inline-flex items-center gap-2 rounded text-sm text-bone-300 hover:text-bone-50 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none">
        <ArrowLeft aria-hidden="true" className="size-4" />
        All posts
      </Link>
      <header className="mt-8 border-b border-ink-800 pb-8">
        <h1 className="font-display text-4xl leading-tight font-semibold tracking-tight text-bone-50 md:text-5xl">{data.title}</h1>
        <div className="mt-5 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-bone-300">
          <span className="inline-flex items-center gap-2">
            <CalendarDays aria-hidden="true" className="size-4 text-blood-400" />
            <time dateTime={data.date}>{formatPostDate(data.date)}</time>
          </span>
          <span>{data.author}</span>
          {data.bookId !== null && data.bookTitle ? (
            <span className="inline-flex items-center gap-2">
              <BookMarked aria-hidden="true" className="size-4 text-blood-400" />
              <span>
                Related to <cite className="not-italic text-bone-100">{data.bookTitle}</cite>
              </span>
            </span>
          ) : null}
        </div>
      </header>
      {data.coverImage ? (
        <PostCover
          src={data.coverImage}
          sizes="(min-width: 768px) 45rem, 100vw"
          priority
          className="mt-8 w-full rounded-xl border border-ink-700 shadow-2xl shadow-black/40"
        />
      ) : null}
      <div className="mt-4">
        <PostContent html={data.content} />
      </div>
      <footer className="mt-14 flex flex-col gap-5 rounded-xl border border-ink-700 bg-ink-900/70 p-6">
        <div>
          <h2 className="font-display text-xl font-semibold text-bone-50">Share this post</h2>
          <p className="mt-1 text-sm text-bone-300">Know a reader who would like it?</p>
        </div>
        <ShareControl variant="expanded" label="Share this post" title={data.title} text={data.excerpt} />
      </footer>
      <div className="mt-10">
        <BackToBlog />
      </div>
    </article>
  );
}
