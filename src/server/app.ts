import { existsSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { ApiError } from '../shared/common';
import type { Config } from './config';
import type { Database } from './db/connection';
import { tokenSecret } from './db/first-run';
import { authenticate } from './lib/auth';
import { AppError, isDatabaseUnavailable, pgCode } from './lib/errors';
import { projectRoot } from './lib/project-root';
import { Tokens } from './lib/tokens';
import { authRoutes, type LoginThrottle } from './modules/auth/auth.routes';
import { categoriesRoutes } from './modules/categories/categories.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { healthRoutes } from './modules/health/health.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { productsRoutes } from './modules/products/products.routes';
import { suppliersRoutes } from './modules/suppliers/suppliers.routes';
import { usersRoutes } from './modules/users/users.routes';

export interface AppOptions {
  config: Config;
  database: Database;
  throttle?: LoginThrottle;
  /** Built web app to serve; defaults to dist/web when it exists. */
  webRoot?: string;
  logger?: boolean;
}

const BODY_LIMIT = 1024 * 1024;

function errorBody(error: string, details?: ApiError['details']): ApiError {
  return details ? { success: false, error, details } : { success: false, error };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ? { level: 'info', redact: ['req.headers.authorization'] } : false,
    bodyLimit: BODY_LIMIT,
    trustProxy: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API reads JSON only: without this, Fastify's built-in text/plain parser would hand a
  // string to the validators (a confusing 400) instead of the 415 every other type gets.
  app.removeContentTypeParser('text/plain');

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate(
    'tokens',
    new Tokens(await tokenSecret(database.db, config.jwtSecret), config.tokenTtlSeconds),
  );
  app.decorateRequest('user', null);
  app.decorateRequest('claims', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return reply.code(error.status).send(errorBody(error.message));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'Invalid value.',
      }));
      const first = details[0];
      const sentence = first
        ? first.path
          ? `${first.path}: ${first.message}`
          : first.message
        : 'Invalid request.';
      return reply.code(400).send(errorBody(sentence, details));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(errorBody('The request body is too large (1 MB at most).'));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(errorBody('Send the request body as JSON.'));
    }
    if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return reply.code(400).send(errorBody('The request body is not valid JSON.'));
    }
    const code = pgCode(error);
    if (code === '23505') return reply.code(409).send(errorBody('That already exists.'));
    if (code === '23503') return reply.code(409).send(errorBody('That is still in use by other records.'));
    if (code === '23514' || code === '22P02' || code === '22003' || code === '22001') {
      return reply.code(400).send(errorBody('A value is out of the allowed range.'));
    }
    if (isDatabaseUnavailable(error) || isDatabaseUnavailable((error as { cause?: unknown }).cause)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send(errorBody('The database is not answering; please try again shortly.'));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send(errorBody('The request could not be understood.'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(errorBody('Something went wrong on our side; please try again.'));
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Inventory MS API',
        description:
          'Inventory and retail sales. Sign in with POST /api/auth/login and send the token as a bearer header.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null },
    staticCSP: true,
    // The reference page loads nothing from other hosts; it only needs inline styles of its own.
    transformStaticCSP: (header) =>
      header
        .replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'")
        .replace(/font-src [^;]*/, "font-src 'self' data:")
        .replace(/img-src [^;]*/, "img-src 'self' data:"),
  });

  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticate);
      await api.register(healthRoutes);
      await api.register(authRoutes(options.throttle ?? { perEmail: 5, perAddress: 100 }));
      await api.register(dashboardRoutes);
      await api.register(productsRoutes);
      await api.register(categoriesRoutes);
      await api.register(suppliersRoutes);
      await api.register(usersRoutes);
      await api.register(ordersRoutes);
    },
    { prefix: '/api' },
  );

  const webRoot = options.webRoot ?? join(projectRoot(), 'dist', 'web');
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
    return reply.code(404).send(errorBody('No such route.'));
  });

  // Answers sent while shutting down close their connection, so keep-alive clients do not hold
  // the server open after their last request.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.addHook('onClose', async () => {
    await database.close();
  });
  return app;
}
