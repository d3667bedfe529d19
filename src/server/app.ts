import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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
import { PRODUCT_NAME } from '../shared/product';
import { codeOfStatus, type ErrorCode, refusalSentence } from '../shared/refusals';
import type { Config } from './config';
import type { Database } from './db/connection';
import { ensureStoreSettings, tokenSecret } from './db/first-run';
import { setLowStockThreshold } from './db/low-stock-threshold';
import { setReportTimeZone } from './db/report-time-zone';
import { authenticate, guardSignedInCheck } from './lib/auth';
import { bodyLimitOf, MAX_BODY, MAX_JSON_DEPTH, nestsDeeperThan, sizeText } from './lib/body-limit';
import {
  AppError,
  appErrorBody,
  businessError,
  duplicateRefusal,
  isDatabaseUnavailable,
  pgCode,
} from './lib/errors';
import { ExpensiveReads } from './lib/expensive-reads';
import { safeErrorForLog } from './lib/log';
import { projectRoot } from './lib/project-root';
import { MemoryState, RedisState, type SharedState } from './lib/shared-state';
import { badTextPath, urlHoldsBadText } from './lib/text-guard';
import { allowancesOn, LOGIN_LIMITS, type LoginLimits, LoginThrottle } from './lib/throttle';
import { Tokens } from './lib/tokens';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { categoriesRoutes } from './modules/categories/categories.routes';
import { customersRoutes } from './modules/customers/customers.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { healthRoutes } from './modules/health/health.routes';
import { ImportApplier } from './modules/imports/apply';
import { importApplyRoutes } from './modules/imports/apply.routes';
import { importCheckRoutes } from './modules/imports/check.routes';
import { importsRoutes } from './modules/imports/imports.routes';
import { lotsRoutes } from './modules/lots/lots.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { productsRoutes } from './modules/products/products.routes';
import { purchasingRoutes } from './modules/purchasing/purchasing.routes';
import { refundsRoutes } from './modules/refunds/refunds.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { salesRoutes } from './modules/sales/sales.routes';
import { stockRoutes } from './modules/stock/stock.routes';
import { storeRoutes } from './modules/store/store.routes';
import { suppliersRoutes } from './modules/suppliers/suppliers.routes';
import { tillRoutes } from './modules/till/till.routes';
import { usersRoutes } from './modules/users/users.routes';

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

const BAD_TEXT = 'Text must not contain NUL characters or invalid Unicode.';

/** A failure's body: its sentence and its code (by its status unless named), and details when given. */
function errorBody(
  status: number,
  error: string,
  details?: ApiError['details'],
  code: ErrorCode = details ? 'VALIDATION' : codeOfStatus(status),
): ApiError {
  return details ? { success: false, error, code, details } : { success: false, error, code };
}

/**
 * Failures Node's HTTP parser meets before Fastify sees a request (a request line or headers past
 * 16 KB, a malformed request, a request that took too long to arrive): answered in the error
 * shape too, then the connection is closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, sentence] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request address or headers are too long.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request could not be understood.'];
  const body = JSON.stringify(errorBody(status, sentence));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

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
    // Errors the router meets before any route runs, answered in the error shape. No hook runs
    // for these answers, so the no-store the onSend hook gives every /api answer is set here.
    frameworkErrors: (error, _request, reply) => {
      // A path segment longer than any real id names nothing we have.
      const [status, sentence] =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [404, 'Not found.'] : [400, 'The address is not valid.'];
      return reply
        .code(status as never)
        .header('cache-control', 'no-store')
        .send(errorBody(status, sentence) as never);
    },
    clientErrorHandler: answerClientError,
    // A request that arrives while the server stops is still answered (DESIGN §7), with
    // Connection: close, instead of a 503.
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API reads JSON only: without this, Fastify's built-in text/plain parser would hand a
  // string to the validators (a confusing 400) instead of the 415 every other type gets.
  app.removeContentTypeParser('text/plain');
  // A deeply nested body costs JSON.parse most of a second per megabyte (and every walk after it
  // more): its depth is read in one cheap pass first, and a body deeper than any contract is a 400.
  // The default parser does the rest (prototype poisoning refused, an empty body a 400).
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH))
      return done(
        new AppError(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`),
        undefined,
      );
    parseJson(request, body as string, done);
  });

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate(
    'tokens',
    new Tokens(await tokenSecret(database.db, config.jwtSecret), config.tokenTtlSeconds),
  );
  await ensureStoreSettings(database.db, config.storeName);
  if (await setReportTimeZone(database, config.timeZone))
    app.log.info(`reports now count days in ${config.timeZone}: every day was recounted from the orders`);
  if (await setLowStockThreshold(database, config.lowStockThreshold))
    app.log.info(`products without their own reorder point now reorder at ${config.lowStockThreshold}`);
  const sharedState =
    options.sharedState ??
    (config.redisUrl ? await RedisState.open(config.redisUrl, app.log) : new MemoryState());
  app.decorate('sharedState', sharedState);
  app.decorate('loginThrottle', new LoginThrottle(sharedState, { ...LOGIN_LIMITS, ...options.throttle }));
  app.decorate('allowances', allowancesOn(sharedState));
  app.decorate('expensiveReads', new ExpensiveReads());
  // Catalogue imports apply in the background: those a stopped server left are resumed once the
  // app is ready; a stop lets the batch in flight finish before the database closes.
  const importApplier = new ImportApplier(database.db, app.log, config.importLeaseSeconds ?? 30);
  app.decorate('importApplier', importApplier);
  app.addHook('onReady', async () => importApplier.start());
  app.addHook('preClose', async () => importApplier.stop());
  app.decorateRequest('user', null);
  app.decorateRequest('claims', null);
  app.decorateRequest('signedInChecked', false);
  // Which routes check the signed-in user in their own statement: a test proves each refuses a
  // deleted user, an old or signed-out token and a wrong role.
  const checkedInStatement: string[] = [];
  app.addHook('onRoute', (route) => {
    // Each call reads at most the largest body its contract allows (a sign-in a few kB, a purchase
    // order of 500 lines a few hundred), so a stranger cannot make the server read and parse a
    // megabyte to be told no.
    const { limit, depth } = bodyLimitOf(route.schema?.body);
    if (Number.isFinite(depth) && depth > MAX_JSON_DEPTH)
      throw new Error(`${route.method} ${route.url}: its body nests deeper than MAX_JSON_DEPTH allows`);
    route.bodyLimit ??= limit;
    // A GET route's automatic HEAD twin runs the same handler.
    if (route.config?.userCheckedInStatement && route.method !== 'HEAD')
      checkedInStatement.push(`${route.method} ${route.url}`);
  });
  app.decorate('routesCheckingUserInStatement', checkedInStatement);

  // NUL and invalid UTF-16 are refused everywhere (DESIGN §7): in the path and the query here,
  // in a JSON body once it is parsed.
  app.addHook('onRequest', async (request) => {
    if (urlHoldsBadText(request.url)) throw new AppError(400, BAD_TEXT);
  });
  app.addHook('preValidation', async (request, reply) => {
    const path = badTextPath(request.body);
    if (path === undefined) return;
    const error = path ? `${path}: ${BAD_TEXT}` : BAD_TEXT;
    return reply.code(400).send(errorBody(400, error, [{ path, message: BAD_TEXT }]));
  });
  // API answers hold tokens and private data: no browser or proxy may keep a copy.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const business = businessError(error);
    if (business) return reply.code(business.status).send(appErrorBody(business));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'Invalid value.',
      }));
      const first = details[0];
      const sentence = first ? refusalSentence('VALIDATION', first) : 'Invalid request.';
      return reply.code(400).send(errorBody(400, sentence, details));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? MAX_BODY;
      return reply
        .code(413)
        .send(errorBody(413, `The request body is too large (${sizeText(limit)} at most for this call).`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(errorBody(415, 'Send the request body as JSON.'));
    }
    if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return reply.code(400).send(errorBody(400, 'The request body is not valid JSON.'));
    }
    const code = pgCode(error);
    if (code === '23505') return reply.code(409).send(appErrorBody(duplicateRefusal(error)));
    if (code === '23503')
      return reply.code(409).send(errorBody(409, refusalSentence('IN_USE'), undefined, 'IN_USE'));
    if (code === '23514' || code === '22P02' || code === '22003' || code === '22001' || code === '22021') {
      return reply.code(400).send(errorBody(400, 'A value is out of the allowed range.'));
    }
    if (isDatabaseUnavailable(error) || isDatabaseUnavailable((error as { cause?: unknown }).cause)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send(errorBody(503, 'The database is not answering; please try again shortly.'));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .code(error.statusCode)
        .send(errorBody(error.statusCode, 'The request could not be understood.'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(errorBody(500, 'Something went wrong on our side; please try again.'));
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
        title: `${PRODUCT_NAME} API`,
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
      api.addHook('onSend', guardSignedInCheck);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(dashboardRoutes);
      await api.register(productsRoutes);
      await api.register(categoriesRoutes);
      await api.register(suppliersRoutes);
      await api.register(usersRoutes);
      await api.register(ordersRoutes);
      await api.register(stockRoutes);
      await api.register(auditRoutes);
      await api.register(purchasingRoutes);
      await api.register(reportsRoutes);
      await api.register(customersRoutes);
      await api.register(salesRoutes);
      await api.register(storeRoutes);
      await api.register(tillRoutes);
      await api.register(refundsRoutes);
      await api.register(importsRoutes);
      await api.register(importCheckRoutes);
      await api.register(importApplyRoutes);
      await api.register(lotsRoutes);
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
    return reply.code(404).send(errorBody(404, 'No such route.'));
  });

  // Answers sent while shutting down close their connection, so keep-alive clients do not hold
  // the server open after their last request. Before the listener closes, the server takes in
  // what clients have already sent (see takeInWhatHasArrived).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    await takeInWhatHasArrived(app.server);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.addHook('onClose', async () => {
    await database.close();
    if (!options.sharedState) await sharedState.close();
  });
  return app;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Takes in what clients sent before the stop, so that it is answered rather than reset (DESIGN §7,
 * decision 0009): closing the listener resets the connections still queued in the kernel, and
 * server.close() destroys every connection whose request is not parsed yet as idle. On a busy
 * event loop (PGlite runs on it) both are common, as Node accepts one queued connection per loop
 * turn and reads it on a later one. So this waits, two turns at a time, until a round brings no
 * new connection or request; at most limitMs, so that clients still connecting cannot keep the
 * server listening.
 */
async function takeInWhatHasArrived(server: FastifyInstance['server'], limitMs = 5000): Promise<void> {
  if (!server.listening) return;
  let arrivals = 0;
  const arrived = () => {
    arrivals += 1;
  };
  server.on('connection', arrived);
  server.on('request', arrived);
  const deadline = Date.now() + limitMs;
  try {
    let seen: number;
    do {
      seen = arrivals;
      await nextTurn();
      await nextTurn();
    } while (arrivals !== seen && Date.now() < deadline);
  } finally {
    server.off('connection', arrived);
    server.off('request', arrived);
  }
}
