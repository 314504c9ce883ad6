/** The 3 latest posts and a "View All Posts" link to /blog. */
import { Link } from '@client/lib/router';
import { ArrowRight } from 'lucide-react';
import { BLOG_TEASER_COUNT } from '@shared/constants';
import { buttonClasses } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { useLatestPosts } from '@client/features/blog/api';
import { PostCard } from '@client/features/blog/components/post-card';
import { HomeSection } from '@client/features/site/components/home-section';

export function BlogTeaser() {
  const posts = useLatestPosts();
  const latest = posts.data?.slice(0, BLOG_TEASER_COUNT) ?? [];
  return (
    <HomeSection
      id="blog-teaser"
      eyebrow="From the desk"
      title="Latest from the Blog"
      actions={
        <Link to="/blog" className={buttonClasses('outline')}>
          View All Posts
          <ArrowRight aria-hidden="true" />
        </Link>
      }
    >
      {posts.isPending ? (
        <div className="grid gap-6 md:grid-cols-3">
          {Array.from({ length: BLOG_TEASER_COUNT }, (_, i) => (
            <Skeleton key={i} className="h-72 w-full" />
          ))}
        </div>
      ) : latest.length === 0 ? (
        <p className="text-bone-300">No blog posts available</p>
      ) : (
        <ul className="grid gap-6 md:grid-cols-3">
          {latest.map((post) => (
            <li key={post.id} className="flex">
              <PostCard post={post} headingLevel="h3" />
            </li>
          ))}
        </ul>
      )}
    </HomeSection>
  );
}
