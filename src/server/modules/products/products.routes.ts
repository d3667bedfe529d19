import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, Message } from '../../../shared/common';
import type { CsvValue } from '../../../shared/csv';
import type { LotRef, Tracking } from '../../../shared/lots';
import { pageWindow } from '../../../shared/paging';
import {
  PRODUCT_CSV_HEADER,
  ProductChoicesResponse,
  ProductCodeParams,
  ProductInput,
  ProductListResponse,
  ProductQuery,
  ProductResponse,
  ProductUpdateInput,
} from '../../../shared/products';
import { can, type Role } from '../../../shared/roles';
import type { Db } from '../../db/connection';
import { currentUser, signedInRunner } from '../../lib/auth';
import { costFor, csvColumnsFor } from '../../lib/costs';
import { CSV_BATCH, checkMayExport, sendCsv } from '../../lib/csv-stream';
import { badRequest, forbidden, isId, notFound, refuse } from '../../lib/errors';
import { jsonBatchFor, sendJsonList } from '../../lib/json-stream';
import { locationFor } from '../locations/location-for';
import {
  type CatalogueCursor,
  catalogueJsonBatch,
  catalogueTailJson,
  findProduct,
  findProductByCode,
  missingReferences,
  productChoices,
  productCsvBatch,
  productPage,
} from './products.queries';
import { deleteProduct, insertProduct, type ProductValues, updateProduct } from './products.writes';

type ProductBody = {
  name: string;
  description: string;
  price: number;
  stock: number;
  category: string;
  supplier: string;
  expectedStock?: number;
  cost?: number | null;
  reorderPoint?: number | null;
  reorderQuantity?: number | null;
  sku?: string | null;
  barcode?: string | null;
  /** A tax rate id; null: the store's default; left out: a new product has the default, an edit keeps its rate. */
  taxRate?: string | null;
  tracking?: Tracking;
  lot?: LotRef;
  brand?: string | null;
  active?: boolean;
};

/** Checks that the category, supplier and tax rate exist and turns the body into column values. */
async function productValues(db: Db, body: ProductBody): Promise<ProductValues> {
  const rate = body.taxRate ?? undefined;
  const missing =
    isId(body.category) && isId(body.supplier) && (rate === undefined || isId(rate))
      ? await missingReferences(db, body.category, body.supplier, rate)
      : {
          category: !isId(body.category),
          supplier: !isId(body.supplier),
          taxRate: rate !== undefined && !isId(rate),
        };
  if (missing.category) throw badRequest('Choose an existing category.');
  if (missing.supplier) throw badRequest('Choose an existing supplier.');
  if (missing.taxRate) throw badRequest('Choose an existing tax rate.');
  const { category, supplier, taxRate, expectedStock: _expected, lot: _lot, ...rest } = body;
  return {
    ...rest,
    categoryId: category,
    supplierId: supplier,
    ...(taxRate !== undefined && { taxRateId: taxRate }),
  };
}

/**
 * Which products a list shows (DESIGN §22): a role that sells (every role but the admin, who
 * keeps the catalogue) is offered only active ones whatever it asks; an admin sees them all unless
 * it asks.
 */
function activeFor(role: Role, asked: ProductQuery['active']): NonNullable<ProductQuery['active']> {
  return can(role, 'products:write') ? (asked ?? 'all') : 'true';
}

export const productsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/products',
    {
      // A search, and the whole catalogue (streamed), are expensive reads; a page of it is not.
      config: {
        permission: 'products:read',
        expensiveRead: (query) =>
          (typeof query.search === 'string' && query.search.trim() !== '') ||
          (query.page === undefined && query.pageSize === undefined),
      },
      schema: {
        tags: ['products'],
        summary: 'The catalogue, or one page of it',
        description:
          'Without page or pageSize the whole catalogue (streamed), with the categories and suppliers to choose from; with them one page, without those lists (see /products/choices). search matches every word in the name (a word of one or two characters at the start of a word of the name), or a SKU or barcode exactly; total counts all matches, except that a search of such short words only stops counting at 2,000 and says totalCapped. A search statement that runs past a few hundred milliseconds answers 503. format=csv (admin only) answers every match as CSV in name order (streamed). cost only for roles that read costs. location (DESIGN §17; every role but the superAdmin): each product’s stock is its stock at that location and stockTotal its whole stock (the CSV’s Stock is the stock there); 404 for an unknown location. active (DESIGN §22): true, false or all; the roles that sell are only ever offered active products, whatever they ask; an admin sees all unless asking. item: only the variants of that item.',
        querystring: ProductQuery,
        response: { 200: ProductListResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const query = { ...request.query, active: activeFor(me.role, request.query.active) };
      // DESIGN §17: `?location=` (read by every role but the superAdmin; an inactive one too).
      if (request.query.location !== undefined && !can(me.role, 'locations:read')) throw forbidden();
      const locationId =
        request.query.location === undefined
          ? undefined
          : (await locationFor(app.database, request.query.location, { inactive: 'allowed' })).id;
      if (request.query.format === 'csv') {
        checkMayExport(me.role);
        const columns = csvColumnsFor<CsvValue>(me.role, PRODUCT_CSV_HEADER, ['Cost']);
        return sendCsv<{ name: string; id: string }>(reply, 'products.csv', columns.header, async (after) => {
          const batch = await productCsvBatch(
            app.db,
            query,
            app.config.lowStockThreshold,
            after,
            CSV_BATCH,
            locationId,
          );
          return { ...batch, rows: batch.rows.map(columns.pick) };
        });
      }
      const window = pageWindow(request.query);
      if (window) {
        const { products, total, capped } = await productPage(
          app.database,
          query,
          window,
          app.config.lowStockThreshold,
          locationId,
        );
        return {
          success: true as const,
          products: products.map((product) => costFor(me.role, product, 'cost')),
          total,
          ...(capped && { totalCapped: true as const }),
          page: window.page,
          pageSize: window.pageSize,
        };
      }
      // The whole catalogue streams in batches: at 50,000 products one answer held the server's
      // thread for seconds and its memory grew by the answer's size.
      return sendJsonList<CatalogueCursor>(
        reply,
        '{"success":true,"products":[',
        (after) =>
          catalogueJsonBatch(
            app.db,
            query,
            app.config.lowStockThreshold,
            (product) => costFor(me.role, product, 'cost'),
            after,
            jsonBatchFor(app.database),
            locationId,
          ),
        (total) => catalogueTailJson(app.db, total),
      );
    },
  );

  app.get(
    '/products/choices',
    {
      config: { permission: 'products:read' },
      schema: {
        tags: ['products'],
        summary: 'The categories and suppliers a product can be given, by name',
        response: { 200: ProductChoicesResponse },
      },
    },
    async () => ({ success: true as const, ...(await productChoices(app.db)) }),
  );

  app.get(
    '/products/code/:code',
    {
      config: { permission: 'products:read', userCheckedInStatement: true },
      schema: {
        tags: ['products'],
        summary: 'The product with this barcode or SKU',
        description:
          'What the sale counter asks when a scanner types a code: the product whose barcode or SKU is exactly this, ignoring case (a barcode before a SKU); 404 when none.',
        params: ProductCodeParams,
        response: { 200: ProductResponse },
      },
    },
    async (request) => {
      const found = await findProductByCode(
        signedInRunner(request),
        request.params.code,
        app.config.lowStockThreshold,
      );
      if (!found) throw notFound('Product');
      // DESIGN §22: the counter is not offered an inactive product (only the counter asks this).
      if (!found.product.active) throw refuse('PRODUCT_INACTIVE', { product: found.product.name });
      return { success: true as const, product: costFor(found.callerRole, found.product, 'cost') };
    },
  );

  app.get(
    '/products/:id',
    {
      config: { permission: 'products:read' },
      schema: {
        tags: ['products'],
        summary: 'One product',
        params: IdParams,
        response: { 200: ProductResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const product = isId(id) ? await findProduct(app.db, id, app.config.lowStockThreshold) : undefined;
      if (!product) throw notFound('Product');
      return { success: true as const, product: costFor(currentUser(request).role, product, 'cost') };
    },
  );

  app.post(
    '/products/add',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['products'],
        description:
          'A lot-tracked product (tracking lot, DESIGN §15) created with stock names the lot it goes into (400 without one); a lot for a product not tracked by lot is a 400.',
        body: ProductInput,
        response: { 201: ProductResponse },
      },
    },
    async (request, reply) => {
      const values = await productValues(app.db, request.body);
      const id = await insertProduct(app.db, values, currentUser(request), request.body.lot);
      const product = await findProduct(app.db, id, app.config.lowStockThreshold);
      if (!product) throw notFound('Product');
      return reply.code(201).send({ success: true as const, product });
    },
  );

  app.put(
    '/products/:id',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['products'],
        description:
          "With expectedStock (the stock the form showed): an unchanged stock is left alone, and a changed one is refused with 409 when the stock moved meanwhile. A new stock is recorded as a count movement. Lots (DESIGN §15): a lot-tracked product's stock changes only through its lots (409); turning tracking on with stock there names the lot it goes into (400 without one); turning it off needs every lot empty (409).",
        params: IdParams,
        body: ProductUpdateInput,
        response: { 200: ProductResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Product');
      const values = await productValues(app.db, request.body);
      const edit = { ...values, expectedStock: request.body.expectedStock, lot: request.body.lot };
      if (!(await updateProduct(app.db, id, edit, currentUser(request)))) throw notFound('Product');
      const product = await findProduct(app.db, id, app.config.lowStockThreshold);
      if (!product) throw notFound('Product');
      return { success: true as const, product };
    },
  );

  app.delete(
    '/products/:id',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['products'],
        description:
          'Past orders keep their product name, category and prices. Stock it still holds is written off first (an adjustment per location or lot, posted to 5150), so its value leaves the books by an entry.',
        params: IdParams,
        response: { 200: Message },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id) || !(await deleteProduct(app.db, id, currentUser(request)))) throw notFound('Product');
      return { success: true as const, message: 'Product deleted.' };
    },
  );
};
