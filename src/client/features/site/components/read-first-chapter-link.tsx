/** Opens the free first chapter in the reading room (/read/sample), for anyone. */
import { buttonClasses } from '@client/components/ui/button';
import { Link } from '@client/lib/router';

export function ReadFirstChapterLink() {
  return (
    <Link to="/read/sample" className={buttonClasses('outline', 'md')}>
      Read the first chapter
    </Link>
  );
}
