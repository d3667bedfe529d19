import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../lib/project-root';
import { errorBody } from './error-body';

/**
 * How long a browser may keep a built file without asking. A hashed file never changes, so a
 * year. Every other name stays the same from one version to the next (the page, the service
 * worker and its Workbox runtime, the manifest, the icons): the browser asks each time (a
 * conditional request, answered 304 while it has not changed), so a new service worker is found
 * as soon as it is out, and the worker's own copies keep the app working offline.
 */
function cacheControlFor(webRoot: string, file: string): string {
  // Vite writes the files whose names carry a hash of their content into assets/.
  const hashed = relative(webRoot, file).split(sep)[0] === 'assets';
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * The built web app's files when there is a build, and the answer to every other path: the web
 * app's page for a page path, a 404 in the error shape for the rest.
 */
export async function webApp(app: FastifyInstance, webRootOption: string | undefined): Promise<void> {
  const webRoot = webRootOption ?? join(projectRoot(), 'dist', 'web');
  const hasWeb = existsSync(join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (response, file) => response.setHeader('cache-control', cacheControlFor(webRoot, file)),
    });
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
    if (wantsPage) return reply.sendFile('index.html');
    return reply.code(404).send(errorBody(404, 'No such route.'));
  });
}
