import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { EXPIRING_CSV_HEADER, ExpiringQuery, ExpiringResponse, TraceResponse } from '../../../shared/lots';
import { DEFAULT_PAGE_SIZE, onePage } from '../../../shared/paging';
import { CSV_BATCH, sendCsv } from '../../lib/csv-stream';
import { notFound } from '../../lib/errors';
import { locationFor } from '../locations/location-for';
import {
  type ExpiringCursor,
  expiringCsvBatch,
  expiringPage,
  lotTrace,
  reportToday,
} from './lots.repository';

/**
 * Lots across products (DESIGN §15): the expiring list (GET /lots/expiring, JSON or CSV) and a
 * lot's recall trace (GET /lots/:id/trace). A product's own lots are read at
 * GET /products/:id/lots (stock routes). Both read costs and every customer a lot reached: admin
 * work, with the permission of the other admin-only stock reads (the reorder suggestions).
 */
export const lotsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/lots/expiring',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['lots'],
        summary:
          'Lots holding units that expire within days (expired ones too), soonest first, value at cost',
        description: `days 1–365 (30 by default) after today in the store's time zone, which the answer names. One page (pageSize defaults to ${DEFAULT_PAGE_SIZE}); total, quantity and value count every page. A product without a cost counts 0. format=csv answers the whole list as CSV (streamed). location (DESIGN §17): only the lots with units there, and their units there (404 for an unknown location).`,
        querystring: ExpiringQuery,
        response: { 200: ExpiringResponse },
      },
    },
    async (request, reply) => {
      const { days } = request.query;
      // A read may name an inactive location (its lots may still hold units); unknown: 404.
      const locationId =
        request.query.location === undefined
          ? undefined
          : (await locationFor(app.database, request.query.location, { inactive: 'allowed' })).id;
      if (request.query.format === 'csv') {
        // One today for the whole export, however long it streams.
        const today = await reportToday(app.database);
        return sendCsv<ExpiringCursor>(
          reply,
          `expiring-lots-${days}-days.csv`,
          EXPIRING_CSV_HEADER,
          (after) => expiringCsvBatch(app.database, today, days, after, CSV_BATCH, locationId),
        );
      }
      const window = onePage(request.query);
      const page = await expiringPage(app.database, days, window, locationId);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/lots/:id/trace',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['lots'],
        summary: 'A lot and every movement of it, oldest first: who got its units (a recall)',
        description:
          'Each movement names its order, sale and customer (as the order kept them), its purchase order and its user. 404 for an unknown lot.',
        params: IdParams,
        response: { 200: TraceResponse },
      },
    },
    async (request) => {
      const trace = await lotTrace(app.database, request.params.id);
      if (!trace) throw notFound('Lot');
      return { success: true as const, ...trace };
    },
  );
};
