/**
 * The head tags of a public landing page reached by a link (a free book, a review-copy campaign): its own
 * title, as the page sets it in the browser, a description and a canonical address. A page that does not
 * exist (its lookup answers 404) is the not-found page, with status 404.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';
import type { HeadTags } from './spa';

export const SITE_NAME = 'What We Owe the Dead';

export interface Landing {
  /** The page's own part of the title, before " | What We Owe the Dead". */
  title: string;
  description: string;
}

/** Registers the head of the pages `/{prefix}/{slug}`; `load` throws a 404 when the slug names nothing. */
export function addLandingHead(app: FastifyInstance, prefix: string, load: (slug: string) => Promise<Landing>): void {
  const pattern = new RegExp(`^/${prefix}/([a-z0-9-]+)/?$`, 'i');
  app.addHeadRenderer({
    match: (pathname) => {
      const m = pattern.exec(pathname);
      return m ? { slug: m[1] } : null;
    },
    render: async (_request, { slug }): Promise<HeadTags | { notFound: true }> => {
      try {
        const page = await load(slug);
        const title = `${page.title} | ${SITE_NAME}`;
        const url = new URL(`/${prefix}/${slug.toLowerCase()}`, app.deps.config.publicUrl).toString();
        return {
          title,
          description: page.description,
          canonical: url,
          openGraph: { type: 'website', title, description: page.description, url, site_name: SITE_NAME, locale: 'en_GB' },
          twitter: { card: 'summary', title, description: page.description },
        };
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 404) return { notFound: true };
        throw error;
      }
    },
  });
}
