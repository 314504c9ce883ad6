/**
 * The links between the pages of /blog (ADR 0067): "Newer posts" to the page before, "Older posts" to the
 * page after, and where the reader is ("Page 2 of 9"). Real links, so they work before the code arrives
 * and crawlers follow them; a page at either end shows its missing side as a quiet placeholder, keeping the
 * layout still between pages.
 */
import { Link } from '@client/lib/router';
import { ArrowLeft, ArrowRight } from 'lucide-react';
import { blogPagePath, type BlogPage } from '@shared/schemas/blog';
import { buttonClasses } from '@client/components/ui/button';

export function PageLinks({ page }: { page: Pick<BlogPage, 'page' | 'totalPages' | 'prevPage' | 'nextPage'> }) {
  if (page.totalPages <= 1) return null;
  const placeholder = 'invisible hidden sm:inline-flex';
  return (
    <nav aria-label="Blog pages" className="mt-14 border-t border-ink-700 pt-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        {page.prevPage ? (
          <Link to={blogPagePath(page.prevPage)} rel="prev" className={buttonClasses('outline')}>
            <ArrowLeft aria-hidden="true" />
            Newer posts
          </Link>
        ) : (
          <span aria-hidden="true" className={buttonClasses('outline', 'md', placeholder)}>
            <ArrowLeft />
            Newer posts
          </span>
        )}
        <p className="order-first w-full text-center text-sm text-bone-400 sm:order-none sm:w-auto">
          Page <span className="font-medium text-bone-100">{page.page}</span> of{' '}
          <span className="font-medium text-bone-100">{page.totalPages}</span>
        </p>
        {page.nextPage ? (
          <Link to={blogPagePath(page.nextPage)} rel="next" className={buttonClasses('outline', 'md', 'ml-auto sm:ml-0')}>
            Older posts
            <ArrowRight aria-hidden="true" />
          </Link>
        ) : (
          <span aria-hidden="true" className={buttonClasses('outline', 'md', placeholder)}>
            Older posts
            <ArrowRight />
          </span>
        )}
      </div>
    </nav>
  );
}
