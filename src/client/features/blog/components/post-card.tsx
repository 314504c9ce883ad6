/** One post in a list: its cover if it has one, title, "MMMM d, yyyy" date, excerpt and a Read More link. */
import { Link } from '@client/lib/router';
import { ArrowRight, CalendarDays } from 'lucide-react';
import type { BlogPostSummary } from '@shared/schemas/blog';
import { formatPostDate } from '../api';
import { PostCover } from './post-cover';

export function PostCard({ post, headingLevel = 'h2' }: { post: BlogPostSummary; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  return (
    <article className="group relative flex w-full flex-col rounded-xl border border-ink-700 bg-ink-900/80 p-6 shadow-xl shadow-black/30 transition-colors hover:border-blood-700/70">
      {post.coverImage ? (
        <PostCover
          src={post.coverImage}
          sizes="(min-width: 1024px) 24rem, (min-width: 768px) 50vw, 100vw"
          className="-mx-6 -mt-6 mb-5 w-[calc(100%+3rem)] max-w-none rounded-t-xl border-b border-ink-700"
        />
      ) : null}
      <p className="flex items-center gap-2 text-sm text-bone-400">
        <CalendarDays aria-hidden="true" className="size-4 text-blood-400" />
        <time dateTime={post.date}>{formatPostDate(post.date)}</time>
      </p>
      <Heading className="mt-3 font-display text-2xl leading-snug font-semibold text-bone-50">
        <Link
          to={`/blog/${post.id}`}
          className="rounded focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none hover:text-blood-300"
        >
          {post.title}
        </Link>
      </Heading>
      <p className="mt-3 flex-1 leading-relaxed text-bone-300">{post.excerpt}</p>
      {post.tags.length ? (
        <ul aria-label="Tags" className="mt-4 flex flex-wrap gap-2">
          {post.tags.slice(0, 3).map((tag) => (
            <li key={tag} className="rounded-full border border-ink-600 px-2.5 py-0.5 text-xs text-bone-300">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      <Link
        to={`/blog/${post.id}`}
        className="mt-6 inline-flex items-center gap-2 self-start rounded text-sm font-medium text-blood-300 hover:text-blood-300/80 focus-visible:ring-2 focus-visible:ring-blood-400 focus-visible:outline-none"
      >
        Read More<span className="sr-only">: {post.title}</span>
        <ArrowRight aria-hidden="true" className="size-4 transition-transform group-hover:translate-x-1" />
      </Link>
    </article>
  );
}
