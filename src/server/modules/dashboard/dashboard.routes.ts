import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DashboardResponse } from '../../../shared/dashboard';
import { LocationQuery } from '../../../shared/locations';
import { checkSignedInUser, signedInRunner } from '../../lib/auth';
import { sendJsonText } from '../../lib/json-text';
import { locationFor } from '../locations/location-for';
import { dashboardAtJson, dashboardJson } from './dashboard.repository';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dashboard',
    {
      // The dashboard statement checks the signed-in user itself (one round trip).
      config: { permission: 'dashboard:read', userCheckedInStatement: true },
      schema: {
        tags: ['dashboard'],
        summary: 'Store figures for the admin',
        description:
          'With location (an id; inactive too; unknown: 404): that location’s stock, its sales today and over all time (the orders whose stock left from it), low and out of stock and to reorder by its stock and the reorder point in force there, its lots expiring soon, and stockValue, what it holds at cost.',
        querystring: LocationQuery,
        response: { 200: DashboardResponse },
      },
    },
    async (request, reply) => {
      const asked = request.query.location;
      if (asked === undefined) return sendJsonText(reply, await dashboardJson(signedInRunner(request)));
      // One location: not the one-statement fast path; the caller is checked first, then the location.
      await checkSignedInUser(request);
      const location = await locationFor(app.database, asked, { inactive: 'allowed' });
      return sendJsonText(reply, await dashboardAtJson(app.database, location.id));
    },
  );
};
