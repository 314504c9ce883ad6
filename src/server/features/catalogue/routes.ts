import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '@shared/schemas/common';
import { storeFormatsResponseSchema } from '@shared/schemas/checkout';
import { bookPageSchema, bookSlugParams, catalogueSchema } from '@shared/schemas/catalogue';
import { notFound } from '../../platform/http/errors';
import { BOOK_NOT_FOUND, catalogueData } from './service';

import { registerCataloguePages } from './pages';


/** The catalogue's public reads, the same for everyone and answered from the public cache. */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  registerCataloguePages(app);

  app.get(
    '/api/catalogue',
    {
      config: { publicRead: true },
      schema: { tags: ['books'], summary: 'Every published book with its series and formats on sale', response: { 200: catalogueSchema } },
    },
    async () => (await catalogueData(app.deps)).catalogue,
  );

  app.get(
    '/api/catalogue/:slug',
    {
      config: { publicRead: true },
      schema: { tags: ['books'], summary: "A published book's page", params: bookSlugParams, response: { 200: bookPageSchema, 404: errorSchema } },
    },
    async (request) => {
      const page = (await catalogueData(app.deps)).pages.get(request.params.slug);
      if (!page) throw notFound(BOOK_NOT_FOUND);
      return page;
    },
  );

  app.get(
    '/api/catalogue/:slug/formats',
    {
      config: { publicRead: true },
      schema: {
        tags: ['books'],
        summary: "The purchase section of a published book's page",
        params: bookSlugParams,
        response: { 200: storeFormatsResponseSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const page = (await catalogueData(app.deps)).pages.get(request.params.slug);
      if (!page) throw notFound(BOOK_NOT_FOUND);
      return { book: { id: page.id, title: page.title }, formats: page.formats };
    },
  );
};
