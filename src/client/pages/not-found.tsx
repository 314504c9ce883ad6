/** The not-found page (docs/PRODUCT.md, Not-found page): exact texts, Return Home and Go Back (browser history back). */
import { Link, useNavigate } from '@client/lib/router';
import { ArrowLeft, Home } from 'lucide-react';
import { Button, buttonClasses } from '@client/components/ui/button';
import { useDocumentTitle } from '@client/lib/use-document-title';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  const navigate = useNavigate();
  return (
    <section className="mx-auto flex min-h-[70vh] max-w-2xl flex-col items-center justify-center px-4 py-20 text-center">
      <p aria-hidden="true" className="font-display text-8xl font-bold text-blood-600/80 md:text-9xl">
        404
      </p>
      <h1 className="mt-4 font-display text-3xl font-semibold text-bone-50 md:text-4xl">404 Page Not Found</h1>
      <p className="mt-4 text-lg leading-relaxed text-bone-300">
        Sorry, we couldn't find the page you're looking for. It might have been moved, deleted, or never existed.
      </p>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses('primary', 'lg')}>
          <Home aria-hidden="true" />
          Return Home
        </Link>
        <Button variant="outline" size="lg" onClick={() => navigate(-1)}>
          <ArrowLeft aria-hidden="true" />
          Go Back
        </Button>
      </div>
    </section>
  );
}
