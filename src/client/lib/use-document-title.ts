/** Set the document title while a page is shown and restore the default when it leaves. */
import { useEffect } from 'react';
import { DEFAULT_TITLE, SITE } from './site';

export function useDocumentTitle(pageTitle?: string): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} | ${SITE.bookTitle}` : DEFAULT_TITLE;
    return () => {
      document.title = DEFAULT_TITLE;
    };
  }, [pageTitle]);
}
