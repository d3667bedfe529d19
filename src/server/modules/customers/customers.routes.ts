import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, Message } from '../../../shared/common';
import {
  CustomerDetailResponse,
  CustomerInput,
  CustomerListResponse,
  CustomerQuery,
  CustomerResponse,
} from '../../../shared/customers';
import { DEFAULT_PAGE_SIZE, onePage } from '../../../shared/paging';
import {
  CreditAdjustmentInput,
  CreditAdjustmentResponse,
  CreditQuery,
  CreditResponse,
} from '../../../shared/till';
import { currentUser } from '../../lib/auth';
import { isId, notFound } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import { salesSellerFilter } from '../sales/sales.repository';
import {
  customerPage,
  customerSummary,
  deleteCustomer,
  findCustomer,
  insertCustomer,
  updateCustomer,
} from './customers.repository';
import { adjustCredit, creditPage } from './store-credit.repository';

export const customersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/customers',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['customers'],
        summary: 'Customers by name, one page at a time',
        description: `search matches every word in the name, phone or email. Always paged (pageSize ${DEFAULT_PAGE_SIZE} unless given).`,
        querystring: CustomerQuery,
        response: { 200: CustomerListResponse },
      },
    },
    async (request) => {
      const window = onePage(request.query);
      const { customers, total } = await customerPage(app.db, request.query, window);
      return { success: true as const, customers, total, page: window.page, pageSize: window.pageSize };
    },
  );

  app.post(
    '/customers',
    {
      config: { permission: 'customers:create' },
      schema: { tags: ['customers'], body: CustomerInput, response: { 201: CustomerResponse } },
    },
    async (request, reply) => {
      const customer = await insertCustomer(app.db, request.body, currentUser(request));
      return reply.code(201).send({ success: true as const, customer });
    },
  );

  app.get(
    '/customers/:id',
    {
      config: { permission: 'customers:read' },
      schema: {
        tags: ['customers'],
        summary: 'A customer, with their sales count, total spent (net of returns) and last purchase',
        description:
          'An admin’s summary counts every sale to the customer; a seller’s only the sales they made.',
        params: IdParams,
        response: { 200: CustomerDetailResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const customer = isId(id) ? await findCustomer(app.db, id) : undefined;
      if (!customer) throw notFound('Customer');
      const summary = await customerSummary(app.db, id, salesSellerFilter(currentUser(request)));
      return { success: true as const, customer, summary };
    },
  );

  app.put(
    '/customers/:id',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['customers'],
        params: IdParams,
        body: CustomerInput,
        response: { 200: CustomerResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const customer = isId(id)
        ? await updateCustomer(app.db, id, request.body, currentUser(request))
        : undefined;
      if (!customer) throw notFound('Customer');
      return { success: true as const, customer };
    },
  );

  app.delete(
    '/customers/:id',
    {
      config: { permission: 'customers:write' },
      schema: {
        tags: ['customers'],
        description: 'Their sales and orders stay, with the name they were sold under.',
        params: IdParams,
        response: { 200: Message },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id) || !(await deleteCustomer(app.db, id, currentUser(request)))) throw notFound('Customer');
      return { success: true as const, message: 'Customer deleted.' };
    },
  );

  app.get(
    '/customers/:id/credit',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['customers'],
        summary: 'A customer’s store credit: the balance and its entries, newest first',
        description: `Each entry says what it did (+ given by a refund or an adjustment, − spent by a sale), its sale or refund, who made it and the balance right after it. Always paged (pageSize ${DEFAULT_PAGE_SIZE} unless given).`,
        params: IdParams,
        querystring: CreditQuery,
        response: { 200: CreditResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const window = onePage(request.query);
      const credit = isId(id) ? await creditPage(app.database, id, window) : undefined;
      if (!credit) throw notFound('Customer');
      return { success: true as const, ...credit, page: window.page, pageSize: window.pageSize };
    },
  );

  app.post(
    '/customers/:id/credit',
    {
      config: { permission: 'till:manage' },
      schema: {
        tags: ['customers'],
        summary: 'Give (+) or take (−) store credit',
        description:
          'An admin’s adjustment with a note, audited. Taking more than the customer holds is a 409 naming the balance. Accepts an Idempotency-Key.',
        params: IdParams,
        body: CreditAdjustmentInput,
        response: { 201: CreditAdjustmentResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Customer');
      const actor = currentUser(request);
      return answerOnce(request, reply, async (tx) => {
        const adjusted = await adjustCredit(tx, id, request.body, actor);
        if (!adjusted) throw notFound('Customer');
        return { status: 201, body: { success: true as const, ...adjusted } };
      });
    },
  );
};
