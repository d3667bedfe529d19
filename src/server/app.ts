import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/connection';
import { MAX_BODY } from './lib/body-limit';
import { safeErrorForLog } from './lib/log';
import type { SharedState } from './lib/shared-state';
import type { LoginLimits } from './lib/throttle';
import { apiDocs } from './plugins/api-docs';
import { apiRoutes } from './plugins/api-routes';
import { appState } from './plugins/app-state';
import { answerClientError, answerFrameworkError } from './plugins/client-errors';
import { errorHandler } from './plugins/error-handler';
import { gracefulClose } from './plugins/graceful-close';
import { importApplier } from './plugins/import-applier';
import { jsonBodies } from './plugins/json-body';
import { apiNoStore } from './plugins/no-store';
import { routeLimits } from './plugins/route-limits';
import { securityHeaders } from './plugins/security-headers';
import { refuseBadText } from './plugins/text-guard';
import { webApp } from './plugins/web-app';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Login limits; DESIGN §7's unless given (tests raise them). */
  throttle?: Partial<LoginLimits>;
  /** Throttle counters and revoked tokens; unset: Redis at config.redisUrl, or this process's memory. */
  sharedState?: SharedState;
  /** Built web app to serve; defaults to dist/web when it exists. */
  webRoot?: string;
  /** Log to stdout, or to the given stream (tests read it). */
  logger?: boolean | { stream: NodeJS.WritableStream };
}

/**
 * The server, one plugin per concern (src/server/plugins). They are applied to the root app in
 * this order because Fastify runs hooks of one kind in the order they were added: the no-store
 * header before a route's own onSend, the import applier's stop before the graceful close.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger
      ? {
          ...(typeof options.logger === 'object' ? { stream: options.logger.stream } : {}),
          level: 'info',
          redact: ['req.headers.authorization'],
          // A failed statement's error carries its parameters (an email, a password's hash):
          // the log gets the error without them.
          serializers: { err: safeErrorForLog },
        }
      : false,
    bodyLimit: MAX_BODY,
    // A hop count is valid at run time (proxy-addr); Fastify's types only list the other forms.
    trustProxy: config.trustProxy as boolean | string[],
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A request that arrives while the server stops is still answered (DESIGN §7), with
    // Connection: close, instead of a 503.
    return503OnClosing: false,
  });
  jsonBodies(app);
  await appState(app, options);
  importApplier(app);
  routeLimits(app);
  refuseBadText(app);
  apiNoStore(app);
  errorHandler(app);
  await securityHeaders(app);
  await apiDocs(app);
  await apiRoutes(app);
  await webApp(app, options.webRoot);
  gracefulClose(app);

  app.addHook('onClose', async () => {
    await database.close();
    if (!options.sharedState) await app.sharedState.close();
  });
  return app;
}
