import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import {
  ImportCheckInput,
  ImportResponse,
  ImportRowsQuery,
  ImportRowsResponse,
} from '../../../shared/imports';
import { DEFAULT_PAGE_SIZE } from '../../../shared/paging';
import { conflict, isId, notFound } from '../../lib/errors';
import { checkedRows, checkImport } from './check';
import { findImport } from './imports.repository';

/** The catalogue import's check (DESIGN §14); registered beside importsRoutes. */
export const importCheckRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/imports/:id/check',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: 'Check an import: a dry run that writes nothing but its results',
        description:
          'Reads every row with the mapping, matches it to a product (by SKU, barcode or name, ignoring case) and keeps its result (create, update with its changes, unchanged, error with each problem by column) for GET /imports/{id}/rows and the apply. A new check replaces the last. 400 for a mapping naming a column the file lacks, two fields on one column, or the field to match by left unmapped; 409 while the import is applied or once it has been.',
        params: IdParams,
        body: ImportCheckInput,
        response: { 200: ImportResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Import');
      await checkImport(app.database, id, request.body);
      const found = await findImport(app.db, id);
      if (!found) throw notFound('Import');
      return { success: true as const, import: found };
    },
  );

  app.get(
    '/imports/:id/rows',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: "A checked import's rows, one page at a time",
        description:
          'Rows in line order (the header is line 1), optionally only those with one result, with their cells as uploaded, the product they matched, their errors and changes. 20 a page unless pageSize says otherwise. 409 before the import has been checked.',
        params: IdParams,
        querystring: ImportRowsQuery,
        response: { 200: ImportRowsResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = isId(id) ? await findImport(app.db, id) : undefined;
      if (!found) throw notFound('Import');
      if (found.checkedAt === null) throw conflict('This import has not been checked yet: check it first.');
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? DEFAULT_PAGE_SIZE;
      const { rows, total } = await checkedRows(app.database, id, {
        result: request.query.result,
        page,
        pageSize,
      });
      return { success: true as const, rows, total, page, pageSize };
    },
  );
};
