import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../lib/project-root';
import { errorBody } from './error-body';

/**
 * The built web app's files when there is a build, and the answer to every other path: the web
 * app's page for a page path, a 404 in the error shape for the rest.
 */
export async function webApp(app: FastifyInstance, webRootOption: string | undefined): Promise<void> {
  const webRoot = webRootOption ?? join(projectRoot(), 'dist', 'web');
  const hasWeb = existsSync(join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // The web app owns every other page path: deep links load it and its router shows the page.
    // A missing file (a name with an extension, e.g. an old /assets/*.js) stays a plain 404.
    const wantsPage =
      hasWeb &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.code(404).send(errorBody(404, 'No such route.'));
  });
}
