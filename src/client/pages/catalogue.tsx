/** /books and /books/{slug}: one lazy chunk for the catalogue and its book pages (decision 0075). */
import { useParams } from '@client/lib/router';
import BooksPage from './books';
import BookPage from './book';

export default function CataloguePage() {
  return useParams().slug ? <BookPage /> : <BooksPage />;
}
