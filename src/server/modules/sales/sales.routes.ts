import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { centsNumber, centsText, toCents } from '../../../shared/money';
import { DEFAULT_PAGE_SIZE, onePage } from '../../../shared/paging';
import { can } from '../../../shared/roles';
import {
  ReviewInput,
  ReviewListResponse,
  ReviewQuery,
  ReviewResponse,
  SaleInput,
  SaleListResponse,
  SaleQuery,
  SaleResponse,
} from '../../../shared/sales';
import { MAX_PAYMENTS } from '../../../shared/till';
import { checkSignedInUser, currentUser } from '../../lib/auth';
import {
  type AppError,
  badRequest,
  forbidden,
  isId,
  notFound,
  pgCode,
  refuse,
  refuseWith,
  violatedConstraint,
} from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import { ALLOWANCES } from '../../lib/throttle';
import { offlineSale, offlineSaleMade } from './offline';
import { closeReview, reviewPage } from './review';
import { findSale, salePage, salesSellerFilter } from './sales.repository';
import { type SaleRefusal, type SellPayment, sellCart, sellContext } from './sell';

/** The one sentence a refused sale answers. */
export function refusal(refused: SaleRefusal): AppError {
  switch (refused.reason) {
    case 'productMissing':
      return notFound('Product');
    case 'productInactive':
      return refuse('PRODUCT_INACTIVE', refused);
    case 'totalChanged': {
      const total = centsNumber(refused.total);
      return refuseWith(
        'TOTAL_CHANGED',
        { total },
        { now: total, shown: centsNumber(refused.shown), currency: refused.currency },
      );
    }
    case 'shortOfStock':
      return refuseWith(
        'SHORT_AT_LOCATION',
        { elsewhere: refused.elsewhere },
        { product: refused.product, location: refused.location, left: refused.stock },
      );
    case 'unexpiredShort':
      // Where else unexpired units may be, only when somewhere is (DESIGN §17).
      return refused.elsewhere.length > 0
        ? refuseWith('UNEXPIRED_SHORT', { elsewhere: refused.elsewhere }, refused)
        : refuse('UNEXPIRED_SHORT', refused);
    case 'locationInactive':
      return refuse('LOCATION_INACTIVE', refused);
    case 'customerMissing':
      return notFound('Customer');
    case 'tenderedShort':
      return badRequest(`Cash tendered is less than the total (${refused.total}).`);
    case 'paymentsShort':
      return badRequest(`The payments are ${refused.missing} short of the total (${refused.total}).`);
    case 'nonCashAboveTotal':
      return badRequest(`Payments other than cash may not add up to more than the total (${refused.total}).`);
    case 'creditNeedsCustomer':
      return badRequest("Paying with store credit needs the sale's customer.");
    case 'creditShort':
      return refuse('CREDIT_SHORT', refused);
    case 'sessionMissing':
      return notFound('Session');
    case 'sessionClosed':
      return refuse('SESSION_CLOSED');
    case 'offlineTotal':
      return refuse('OFFLINE_TOTAL', refused);
    case 'offlineCredit':
      return refuse('OFFLINE_NOT_ALLOWED');
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
        description: `All lines or none: a line short of stock is a 409 naming its product and nothing is taken, unless it sets overrideStock with a manager's approval (the missing units are first recorded as found by the approver). Each line becomes an order with its sale movement; lines of the same product are added together (their discounts must agree). Prices and tax rates come from the database and every amount from the shared computation (DESIGN §12): line and cart discounts (percent or amount; an amount above what it applies to is a 400), tax by each line's rate. A selling role giving more than the store's maxDiscountPercent of a line's gross needs approval {email, pin} of an admin: 403 without it; 403 "That PIN is not right for <email>." for any approval that does not approve (a wrong PIN, an email that is no active admin's, no PIN set), each counted on that email's own PIN counter, never its sign-in (${ALLOWANCES.approvalPins.limit} in ${ALLOWANCES.approvalPins.windowMs / 60_000} minutes, then 429); overrideStock is approved the same way. Paid by payment {method, tendered} (one payment; cash may give tendered, at least the total) or payments [{method, amount}] (at most ${MAX_PAYMENTS}; DESIGN §13): the non-cash amounts may not exceed the total, all together must cover it (400 naming what is missing), only cash gives change. storeCredit needs the sale's customer and at most their balance (409), locked while the sale is made. session: an open till session's id (404 unknown, 409 closed); without it the sale belongs to no drawer. A lot-tracked product is sold first-expiry-first-out from its lots unexpired today (DESIGN §15), never an expired unit and never above them, overrideStock or not: 409 "Only N of <product> unexpired in stock."; each receipt line names the lots it took (lots, [] without lots). total: the total the seller's screen showed; when the one computation gives another now (a price, a tax rate or the store's settings changed), the sale is a 409 with code TOTAL_CHANGED and the new total, before anything is taken or any payment judged. Accepts an Idempotency-Key. offline {id, soldAt, deviceNumber} (DESIGN §21): a sale the counter made offline, with its lines' unitPrice (and taxRate) and the total the device computed (400 OFFLINE_TOTAL otherwise); sold no later than 5 minutes ahead and no earlier than the store's offlineHours ago (409 OFFLINE_SOLD_AT); recorded at soldAt as the fact it is (units found with reason offline, the device's prices, outside a session that closed), each such case marked for review; its id is kept for ever: sent again by the same seller with the same body it answers 200 with the sale it made, otherwise 409 OFFLINE_ID_TAKEN.`,
        body: SaleInput,
        response: { 200: SaleResponse, 201: SaleResponse },
      },
    },
    async (request, reply) => {
      const { lines, customer, payment, payments, discount, approval, session, total, offline } =
        request.body;
      if (!lines.every((line) => isId(line.productId))) throw notFound('Product');
      if (customer !== undefined && !isId(customer)) throw notFound('Customer');
      if (session !== undefined && !isId(session)) throw notFound('Session');
      // The request's money in cents, converted once here, kept so to the answer (decision 0040).
      const paid: SellPayment | undefined = payments
        ? { payments: payments.map((p) => ({ method: p.method, amount: toCents(p.amount) })) }
        : payment && {
            method: payment.method,
            tendered: payment.tendered === undefined ? null : toCents(payment.tendered),
          };
      // The schema already lets exactly one of the two through.
      if (!paid) throw badRequest('A sale is paid by payment or by payments, one of the two.');
      // DESIGN §21: an offline sale is judged by its seller before its statement runs (one more read,
      // for offline sales only); the others check the seller in their statement.
      const me = offline ? await checkSignedInUser(request) : undefined;
      // DESIGN §21: an offline sale sent again answers the sale it made (its id is kept for ever).
      const madeSale = async (id: string) => {
        const sale = await findSale(app.database, id, app.config.storeName);
        if (!sale) throw notFound('Sale');
        return sale;
      };
      const made =
        offline && me ? await offlineSaleMade(app.database, offline.id, me.id, request.body) : undefined;
      if (made) return reply.code(200).send({ success: true as const, sale: await madeSale(made) });
      const recorded = offline ? await offlineSale(app.database, offline, request.body) : undefined;
      try {
        return await answerOnce(request, reply, async (tx) => {
          const sold = await sellCart(sellContext(request), tx, {
            lines: lines.map(({ unitPrice, ...line }) => ({
              ...line,
              ...(unitPrice === undefined ? {} : { unitPrice: centsText(toCents(unitPrice)) }),
            })),
            customerId: customer ?? null,
            discount,
            approval,
            payment: paid,
            sessionId: session ?? null,
            total: total === undefined ? undefined : toCents(total),
            offline: recorded,
          });
          if ('reason' in sold) throw refusal(sold);
          return { status: 201, body: { success: true as const, sale: sold.sale } };
        });
      } catch (error) {
        // Two sends of one offline sale racing: the second meets the first's key, and answers its sale.
        if (
          offline &&
          me &&
          pgCode(error) === '23505' &&
          violatedConstraint(error) === 'sales_offline_id_key'
        ) {
          const raced = await offlineSaleMade(app.database, offline.id, me.id, request.body);
          if (raced) return reply.code(200).send({ success: true as const, sale: await madeSale(raced) });
        }
        throw error;
      }
    },
  );

  app.get(
    '/sales/review',
    {
      config: { permission: 'sales:review' },
      schema: {
        tags: ['sales'],
        summary: 'Offline sales to review (DESIGN §21)',
        description:
          'Sales made offline that were recorded with units found, at a price the product did not have, or outside the session that closed meanwhile; open (the default) or closed, newest sold first.',
        querystring: ReviewQuery,
        response: { 200: ReviewListResponse },
      },
    },
    async (request) => {
      const window = onePage(request.query);
      const page = await reviewPage(app.database, request.query.status ?? 'open', window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.post(
    '/sales/:id/review',
    {
      config: { permission: 'sales:review' },
      schema: {
        tags: ['sales'],
        summary: 'Closes an offline sale’s review with what was done',
        description: '409 REVIEW_CLOSED when the sale has no open review. Accepts an Idempotency-Key.',
        params: IdParams,
        body: ReviewInput,
        response: { 200: ReviewResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 200,
        body: {
          success: true as const,
          review: await closeReview(tx, request.params.id, request.body.note, currentUser(request)),
        },
      })),
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
      const window = onePage(request.query);
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
