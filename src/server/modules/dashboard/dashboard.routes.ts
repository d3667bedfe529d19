import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardResponse } from '../../../shared/dashboard';
import { refuseSignedIn, signedInClaims } from '../../lib/auth';
import { sendJsonText } from '../../lib/json-text';
import { dashboardAnswer } from './dashboard.repository';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dashboard',
    {
      // The dashboard statement checks the signed-in user itself (one round trip).
      config: { permission: 'dashboard:read', userCheckedInStatement: true },
      schema: {
        tags: ['dashboard'],
        summary: 'Store figures for the admin',
        response: { 200: DashboardResponse },
      },
    },
    async (request, reply) => {
      const answer = await dashboardAnswer(
        app.database,
        { lowStockThreshold: app.config.lowStockThreshold, timeZone: app.config.timeZone },
        signedInClaims(request),
      );
      const refused = refuseSignedIn(answer);
      if (refused) throw refused;
      return sendJsonText(reply, answer.body as string);
    },
  );
};
