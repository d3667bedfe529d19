import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ReportQuery } from '../../../shared/accounting';
import {
  AllocateInput,
  BillInput,
  BillListResponse,
  BillQuery,
  BillResponse,
  PayablesQuery,
  PayablesResponse,
  ReceivedNotBilledQuery,
  ReceivedNotBilledResponse,
  SupplierPaymentInput,
  SupplierPaymentListResponse,
  SupplierPaymentQuery,
  SupplierPaymentResponse,
  TaxReturnResponse,
} from '../../../shared/bills';
import { IdParams, Message } from '../../../shared/common';
import { onePage } from '../../../shared/paging';
import { currentUser } from '../../lib/auth';
import { sendCsv } from '../../lib/csv-stream';
import { notFound } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import {
  billPage,
  createBill,
  deleteBill,
  findBill,
  postBill,
  updateBill,
  voidBill,
} from './bills.repository';
import { payables, receivedNotBilled, taxReturn } from './payables';
import { allocatePayment, createPayment, findPayment, paymentPage } from './payments.repository';

const IDEMPOTENT = ' Accepts an Idempotency-Key.';

/** The store's day today. */
async function today(run: { query: <T>(text: string) => Promise<T[]> }): Promise<string> {
  const [row] = await run.query<{ today: string }>('select store_today()::text as today');
  return row?.today as string;
}

/** Suppliers' bills, payments to suppliers, what is owed and the tax return (DESIGN §20), for admins. */
export const billsRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { config: { permission: 'accounting:read' as const } };
  const write = { config: { permission: 'accounting:write' as const } };
  const tags = ['bills'];

  app.get(
    '/bills',
    {
      ...read,
      schema: {
        tags,
        summary: 'Bills: overdue first, then by due date',
        querystring: BillQuery,
        response: { 200: BillListResponse },
      },
    },
    async (request) => {
      const window = onePage(request.query);
      const page = await billPage(app.database, request.query, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/bills/:id',
    {
      ...read,
      schema: {
        tags,
        summary: 'One bill, with its payments',
        params: IdParams,
        response: { 200: BillResponse },
      },
    },
    async (request) => {
      const bill = await findBill(app.database, request.params.id);
      if (!bill) throw notFound('Bill');
      return { success: true as const, bill };
    },
  );

  app.post(
    '/bills',
    {
      ...write,
      schema: {
        tags,
        summary: 'Adds a draft bill',
        description: `Its reference is unique per supplier ignoring case (409 BILL_REFERENCE_TAKEN); a purchase order line must be the supplier's (400 BILL_LINE_INVALID); another line needs an expense or asset account.${IDEMPOTENT}`,
        body: BillInput,
        response: { 201: BillResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: { success: true as const, bill: await createBill(tx, request.body, currentUser(request)) },
      })),
  );

  app.put(
    '/bills/:id',
    {
      ...write,
      schema: {
        tags,
        summary: 'Rewrites a draft bill',
        description: `Only a draft (409 BILL_STATE).${IDEMPOTENT}`,
        params: IdParams,
        body: BillInput,
        response: { 200: BillResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 200,
        body: {
          success: true as const,
          bill: await updateBill(tx, request.params.id, request.body, currentUser(request)),
        },
      })),
  );

  app.delete(
    '/bills/:id',
    {
      ...write,
      schema: {
        tags,
        summary: 'Deletes a draft bill',
        description: 'Only a draft (409 BILL_STATE): a posted bill is voided.',
        params: IdParams,
        response: { 200: Message },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        const label = await deleteBill(tx, request.params.id, currentUser(request));
        return { status: 200, body: { success: true as const, message: `${label} deleted.` } };
      }),
  );

  app.post(
    '/bills/:id/post',
    {
      ...write,
      schema: {
        tags,
        summary: 'Posts a draft bill',
        description: `Its entry is dated the bill's date: not after today (409 DATE_IN_FUTURE), after the lock date (409 BOOKS_LOCKED). A purchase order line bills at most its received − billed units (409 BILL_OVER_RECEIVED, also when two posts race).${IDEMPOTENT}`,
        params: IdParams,
        response: { 200: BillResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 200,
        body: { success: true as const, bill: await postBill(tx, request.params.id, currentUser(request)) },
      })),
  );

  app.post(
    '/bills/:id/void',
    {
      ...write,
      schema: {
        tags,
        summary: 'Voids a posted bill with nothing paid',
        description: `Its entry is reversed, dated today; its purchase order lines are billed less (409 BILL_STATE when paid or not posted).${IDEMPOTENT}`,
        params: IdParams,
        response: { 200: BillResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 200,
        body: { success: true as const, bill: await voidBill(tx, request.params.id, currentUser(request)) },
      })),
  );

  app.get(
    '/supplier-payments',
    {
      ...read,
      schema: {
        tags,
        summary: 'Payments to suppliers, newest first',
        querystring: SupplierPaymentQuery,
        response: { 200: SupplierPaymentListResponse },
      },
    },
    async (request) => {
      const window = onePage(request.query);
      const page = await paymentPage(app.database, request.query, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/supplier-payments/:id',
    {
      ...read,
      schema: { tags, summary: 'One payment', params: IdParams, response: { 200: SupplierPaymentResponse } },
    },
    async (request) => {
      const payment = await findPayment(app.database, request.params.id);
      if (!payment) throw notFound('Payment');
      return { success: true as const, payment };
    },
  );

  app.post(
    '/supplier-payments',
    {
      ...write,
      schema: {
        tags,
        summary: 'Pays a supplier',
        description: `Dr 2000, Cr 1100 (bank, card), 1000 (cash from an open till session, today; 409 CASH_CAP above what the drawer holds) or 1050 (cash without one). Allocations go to the supplier's posted or part-paid bills, each at most its open amount, in all at most the amount (409 ALLOCATION_TOO_MUCH); the rest stays as credit.${IDEMPOTENT}`,
        body: SupplierPaymentInput,
        response: { 201: SupplierPaymentResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: {
          success: true as const,
          payment: await createPayment(tx, request.body, currentUser(request)),
        },
      })),
  );

  app.post(
    '/supplier-payments/:id/allocate',
    {
      ...write,
      schema: {
        tags,
        summary: "Allocates a payment's credit to bills",
        description: `At most what it has left (409 ALLOCATION_TOO_MUCH), to the supplier's owed bills.${IDEMPOTENT}`,
        params: IdParams,
        body: AllocateInput,
        response: { 200: SupplierPaymentResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 200,
        body: {
          success: true as const,
          payment: await allocatePayment(tx, request.params.id, request.body, currentUser(request)),
        },
      })),
  );

  app.get(
    '/accounting/payables',
    {
      ...read,
      schema: {
        tags,
        summary: 'What is owed to each supplier at a day, aged',
        description: 'at defaults to today; total = the balance of 2000 Accounts payable at that day.',
        querystring: PayablesQuery,
        response: { 200: PayablesResponse },
      },
    },
    async (request, reply) => {
      const at = request.query.at ?? (await today(app.database));
      const report = await payables(app.database, at);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          `payables-${at}.csv`,
          ['supplier', 'not due', '1–30', '31–60', '61–90', 'over 90', 'unallocated', 'total'],
          async () => ({
            rows: [...report.suppliers, { supplier: { name: 'Total' }, ...report.totals }].map((row) => [
              row.supplier.name,
              row.notDue,
              row.days1to30,
              row.days31to60,
              row.days61to90,
              row.over90,
              row.unallocated,
              row.total,
            ]),
          }),
        );
      return { success: true as const, ...report };
    },
  );

  app.get(
    '/accounting/received-not-billed',
    {
      ...read,
      schema: {
        tags,
        summary: 'Purchase order lines received and not billed',
        description: 'total = the balance of 2100 Goods received not billed.',
        querystring: ReceivedNotBilledQuery,
        response: { 200: ReceivedNotBilledResponse },
      },
    },
    async (request, reply) => {
      const report = await receivedNotBilled(app.database, request.query.supplier);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          'received-not-billed.csv',
          ['purchase order', 'supplier', 'product', 'unit cost', 'received', 'billed', 'value'],
          async () => ({
            rows: report.lines.map((row) => [
              row.purchaseOrder.number,
              row.supplier.name,
              row.product.name,
              row.unitCost,
              row.received,
              row.billed,
              row.value,
            ]),
          }),
        );
      return { success: true as const, ...report };
    },
  );

  app.get(
    '/accounting/tax-return',
    {
      ...read,
      schema: {
        tags,
        summary: 'The tax return: output − input tax over days',
        description:
          'from defaults to the first of to’s month, to to today; net = the change of 2200 − 1400.',
        querystring: ReportQuery,
        response: { 200: TaxReturnResponse },
      },
    },
    async (request, reply) => {
      const to = request.query.to ?? (await today(app.database));
      const from = request.query.from ?? `${to.slice(0, 7)}-01`;
      const report = await taxReturn(app.database, from, to);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          `tax-return-${from}-${to}.csv`,
          ['side', 'name', 'rate', 'base', 'tax'],
          async () => ({
            rows: [
              ...report.output.map((row) => ['output', row.name, row.rate, row.base, row.tax]),
              ...report.input.map((row) => ['input', row.name, row.rate, row.base, row.tax]),
              ['net', '', '', '', report.net],
            ],
          }),
        );
      return { success: true as const, from, to, ...report };
    },
  );
};
