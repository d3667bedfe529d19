import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '../../shared/product';

/** The API's description from the routes' zod contracts, and its reference page at /api/docs. */
export async function apiDocs(app: FastifyInstance): Promise<void> {
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
}
