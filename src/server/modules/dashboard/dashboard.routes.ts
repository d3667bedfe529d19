import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardResponse } from '../../../shared/dashboard';
import { signedInRunner } from '../../lib/auth';
import { sendJsonText } from '../../lib/json-text';
import { dashboardJson } from './dashboard.repository';

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
      return sendJsonText(reply, await dashboardJson(signedInRunner(request)));
    },
  );
};
