import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_CSV_HEADER, AuditActorsResponse, AuditListResponse, AuditQuery } from '../../../shared/audit';
import { DEFAULT_PAGE_SIZE } from '../../../shared/paging';
import { currentUser } from '../../lib/auth';
import { CSV_BATCH, type NewestCursor, sendCsv } from '../../lib/csv-stream';
import { auditActors, auditCsvBatch, auditPage } from './audit.repository';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'Who did what and when, newest first',
        description:
          'Sign-ins and changes to users, products, categories and suppliers. actor is a user id; from and to are days (YYYY-MM-DD, both included) in the server time zone. Always one page (pageSize defaults to 20); format=csv answers every matching entry as CSV (streamed). Entries are never changed or removed. Cost fields (the cost of a product, the total of a purchase order) only for roles that read costs.',
        querystring: AuditQuery,
        response: { 200: AuditListResponse },
      },
    },
    async (request, reply) => {
      const { page = 1, pageSize = DEFAULT_PAGE_SIZE, format, ...filter } = request.query;
      const { role } = currentUser(request);
      if (format === 'csv')
        return sendCsv<NewestCursor>(reply, 'activity.csv', AUDIT_CSV_HEADER, (after) =>
          auditCsvBatch(app.db, filter, app.config.timeZone, after, CSV_BATCH, role),
        );
      const window = { limit: pageSize, offset: (page - 1) * pageSize };
      const { entries, total } = await auditPage(app.db, filter, window, app.config.timeZone, role);
      return { success: true as const, entries, total, page, pageSize };
    },
  );

  app.get(
    '/audit/actors',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['audit'],
        summary: 'Everyone who appears in the log as the one who acted',
        description: 'With the name and role of their latest entry, deleted users included; by name.',
        response: { 200: AuditActorsResponse },
      },
    },
    async () => ({ success: true as const, actors: await auditActors(app.db) }),
  );
};
