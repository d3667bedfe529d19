import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { DEFAULT_PAGE_SIZE, pageWindow } from '../../../shared/paging';
import { can } from '../../../shared/roles';
import { SaleInput, SaleListResponse, SaleQuery, SaleResponse } from '../../../shared/sales';
import { type Runner, runnerOf } from '../../db/connection';
import { currentUser, signedInRunner } from '../../lib/auth';
import { type AppError, badRequest, conflict, forbidden, isId, notFound } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import {
  findSale,
  mergeLines,
  placeSale,
  type SaleRefusal,
  salePage,
  salesSellerFilter,
} from './sales.repository';

/** The one sentence a refused sale answers. */
function refusal(refused: SaleRefusal): AppError {
  switch (refused.reason) {
    case 'productMissing':
      return notFound('Product');
    case 'shortOfStock':
      return conflict(
        refused.stock === 0
          ? `${refused.product} is out of stock.`
          : `Not enough stock of ${refused.product}: ${refused.stock} left.`,
      );
    case 'customerMissing':
      return notFound('Customer');
    case 'tenderedShort':
      return badRequest(`Cash tendered is less than the total (${refused.total}).`);
  }
}

export const salesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/sales',
    {
      config: { permission: 'sales:create', userCheckedInStatement: true },
      schema: {
        tags: ['sales'],
        summary: 'Make a sale of one or more lines',
        description:
          'All lines or none: a line short of stock is a 409 naming its product and nothing is taken. Each line becomes an order with its sale movement; lines of the same product are added together. Prices come from the database. Cash may give tendered (at least the total) and answers the change. Accepts an Idempotency-Key.',
        body: SaleInput,
        response: { 201: SaleResponse },
      },
    },
    async (request, reply) => {
      const { lines, customer, payment } = request.body;
      if (!lines.every((line) => isId(line.productId))) throw notFound('Product');
      if (customer !== undefined && !isId(customer)) throw notFound('Customer');
      const sell = async (runner: Runner = app.database) => {
        const placed = await placeSale(signedInRunner(request, runner), {
          lines: mergeLines(lines),
          customerId: customer ?? null,
          method: payment.method,
          tendered: payment.tendered ?? null,
        });
        if ('reason' in placed) throw refusal(placed);
        const sale = await findSale(runner, placed.saleId, app.config.storeName);
        if (!sale) throw new Error('a sale just placed is missing');
        return { status: 201, body: { success: true as const, sale } };
      };
      return answerOnce(request, reply, (tx) => sell(runnerOf(tx)), sell);
    },
  );

  app.get(
    '/sales/:id',
    {
      config: { permission: 'sales:read' },
      schema: {
        tags: ['sales'],
        summary: 'A sale’s receipt',
        description: 'An admin sees every sale; others only those they made.',
        params: IdParams,
        response: { 200: SaleResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      const sale = isId(id)
        ? await findSale(app.database, id, app.config.storeName, salesSellerFilter(me))
        : undefined;
      if (!sale) throw notFound('Sale');
      return { success: true as const, sale };
    },
  );

  app.get(
    '/sales',
    {
      config: { permission: 'sales:read' },
      schema: {
        tags: ['sales'],
        summary: 'Sales, newest first, one page at a time',
        description: `An admin sees every sale, others those they made; with customer, only that customer’s among them. search finds a receipt number (S-000123 or 123) or words of the customer’s name; from and to are days in the store’s time zone, both included. Each sale counts its lines and what came back of them. Always paged (pageSize ${DEFAULT_PAGE_SIZE} unless given).`,
        querystring: SaleQuery,
        response: { 200: SaleListResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { customer, search, from, to } = request.query;
      if (customer !== undefined && !can(me.role, 'customers:read'))
        throw forbidden('You are not allowed to see customers.');
      const window = pageWindow({ page: request.query.page ?? 1, pageSize: request.query.pageSize });
      if (!window) throw new Error('a page window always exists when page is given');
      if (customer !== undefined && !isId(customer)) throw notFound('Customer');
      const sellerId = salesSellerFilter(me);
      const { sales, total } = await salePage(
        app.database,
        { customerId: customer, sellerId, search, from, to },
        window,
        app.config.timeZone,
      );
      return { success: true as const, sales, total, page: window.page, pageSize: window.pageSize };
    },
  );
};
