/**
 * One lazy entry for the reading room's three routes (/read/sample, /read/{bookId}/{format},
 * /listen/{bookId}), so the main bundle carries one import, not three. The renderers themselves (EPUB,
 * PDF) load later still, only when a book of their kind is opened.
 */
import { useLocation } from '@client/lib/router';
import ListenPage from './listen';
import ReadPage from './read';
import ReadSamplePage from './read-sample';

export default function ReadingRoomPage() {
  const { pathname } = useLocation();
  if (pathname === '/read/sample') return <ReadSamplePage />;
  if (pathname.startsWith('/listen/')) return <ListenPage />;
  return <ReadPage />;
}
