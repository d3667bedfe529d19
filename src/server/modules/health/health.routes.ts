import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthResponse } from '../../../shared/health';

const PING_TIMEOUT_MS = 3000;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/live',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Whether the process answers, without asking the database (liveness)',
        security: [],
        response: { 200: HealthResponse },
      },
    },
    async () => ({ success: true, status: 'ok' as const }),
  );

  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Whether the server and its database answer',
        security: [],
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      });
      const up = await Promise.race([app.database.ping().catch(() => false), timeout]);
      clearTimeout(timer);
      if (!up)
        return reply
          .code(503)
          .send({ success: false, status: 'unavailable' as const, code: 'UNAVAILABLE' as const });
      return { success: true, status: 'ok' as const };
    },
  );
};
