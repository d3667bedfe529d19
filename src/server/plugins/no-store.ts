import type { FastifyInstance } from 'fastify';

/** API answers hold tokens and private data: no browser or proxy may keep a copy. */
export function apiNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
  });
}
