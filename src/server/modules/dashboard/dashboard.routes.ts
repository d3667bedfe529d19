import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardResponse } from '../../../shared/dashboard';
import { dashboard } from './dashboard.repository';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dashboard',
    {
      config: { permission: 'dashboard:read' },
      schema: {
        tags: ['dashboard'],
        summary: 'Store figures for the admin',
        response: { 200: DashboardResponse },
      },
    },
    async () => ({
      success: true as const,
      ...(await dashboard(app.database, {
        lowStockThreshold: app.config.lowStockThreshold,
        timeZone: app.config.timeZone,
      })),
    }),
  );
};
