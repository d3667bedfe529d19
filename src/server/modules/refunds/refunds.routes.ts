import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '../../../shared/common';
import { centsNumber, formatCents } from '../../../shared/money';
import { SaleResponse, saleNumberLabel, saleNumberSearched } from '../../../shared/sales';
import {
  type PaymentMethod,
  RefundInput,
  RefundResponse,
  refundNumberLabel,
  sessionNumberLabel,
} from '../../../shared/till';
import { runnerOf } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { AppError, badRequest, conflict, isId, notFound, refuse } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import { ALLOWANCES, tryAgainIn } from '../../lib/throttle';
import { recordAudit } from '../audit/audit.repository';
import { findSale } from '../sales/sales.repository';
import { findRefund, type RefundRefusal, refundSale, saleIdByNumber } from './refunds.repository';

/** How a sentence says where money goes back. */
const REFUNDED_AS: Record<PaymentMethod, string> = {
  cash: 'in cash',
  card: 'by card',
  other: 'by the other method',
  storeCredit: 'as store credit',
};

/** "a", "a or b", "a, b or c". */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** The one sentence a refused refund answers. */
function refusal(refused: RefundRefusal): AppError {
  switch (refused.refused) {
    case 'saleMissing':
      return notFound('Sale');
    case 'methodNotOfSale':
      return badRequest(`This sale can be refunded by ${refused.allowed.join(', ')} only.`);
    case 'noCustomer':
      return badRequest('A store credit refund needs the sale’s customer; this sale has none.');
    case 'cashNeedsSession':
      return badRequest('A cash refund needs an open till session.');
    case 'sessionMissing':
      return notFound('Till session');
    case 'sessionClosed':
      return refuse('SESSION_CLOSED', { session: `Till session ${sessionNumberLabel(refused.number)}` });
    case 'orderNotOfSale':
      return new AppError(404, 'Every line must be an order of this sale.');
    case 'tooMany':
      return refuse('RETURN_TOO_MANY', refused);
    case 'drawerShort':
      return refuse('CASH_CAP', { holds: formatCents(refused.holds, refused.currency) });
    case 'cashAboveTaken': {
      const left = `At most ${formatCents(refused.left, refused.currency)} more of this sale can be refunded in cash`;
      const others = refused.others.map((method) => REFUNDED_AS[method]);
      return conflict(others.length === 0 ? `${left}.` : `${left}; refund the rest ${orList(others)}.`);
    }
  }
}

/** A receipt number as typed at the counter: S-000123, s123, 000123 or 123. */
const SaleNumberParams = z.object({ number: z.string() });

export const refundsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/sales/by-number/:number',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['refunds'],
        summary: 'Find a receipt by its number, to refund it',
        description: `number is S-000123, s123, 000123 or 123. Answers the receipt of any sale, whoever made it: a clerk refunds what a customer brings back, whoever sold it; but another seller's sale comes without its customer (customer null) unless the caller is an admin. 404 for a number no sale has, or text that is not a receipt number. A user looks up at most ${ALLOWANCES.receiptLookups.limit} numbers an hour, found or not (then 429), so no one walks every receipt.`,
        params: SaleNumberParams,
        response: { 200: SaleResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const taken = await app.allowances.receiptLookups.take(me.id);
      if (!taken.admitted)
        throw new AppError(
          429,
          `You may look up at most ${ALLOWANCES.receiptLookups.limit} receipts an hour; ${tryAgainIn(taken.waitMs)}.`,
        );
      const number = saleNumberSearched(request.params.number);
      const id = number === undefined ? undefined : await saleIdByNumber(app.database, number);
      const sale = id === undefined ? undefined : await findSale(app.database, id, app.config.storeName);
      if (!sale) throw notFound('Sale');
      // Who bought what is the seller's and the admins' to know (DESIGN §13).
      const theirs = me.role !== 'admin' && sale.seller._id !== me.id;
      return { success: true as const, sale: theirs ? { ...sale, customer: null } : sale };
    },
  );

  app.post(
    '/sales/:id/refunds',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['refunds'],
        summary: 'Refund part or all of a sale at the counter',
        description:
          'Any sale, whoever made it. Each line names an order of this sale (404 otherwise) and how many units; lines naming one order are added together; a line never refunds more than was sold less what came back already (409 naming the product and how many are left), also when two refunds race. Money is given back pro rata, cents exact (DESIGN §12): refunding every unit gives back exactly what was paid, the tax likewise. method is one of the sale’s own payment methods, or storeCredit (needs the sale’s customer, whose balance grows). A cash refund needs an open session whose drawer holds the money (409 otherwise), and gives back at most the cash the sale took (cash paid less change) less its cash refunds so far (409 saying how much cash is left; the rest goes by another of its methods or to store credit), also when two race; other methods may name a session. restock (default true) puts the units back on the shelf with a return movement; false writes the return and then a damaged adjustment of the same units, both naming the refund. Accepts an Idempotency-Key.',
        params: IdParams,
        body: RefundInput,
        response: { 201: RefundResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      const { lines, method, restock, session, reason, location } = request.body;
      if (!isId(id)) throw notFound('Sale');
      if (!lines.every((line) => isId(line.order))) throw refusal({ refused: 'orderNotOfSale' });
      if (session !== undefined && !isId(session)) throw notFound('Till session');
      return answerOnce(request, reply, async (tx) => {
        const done = await refundSale(tx, {
          saleId: id,
          lines,
          method,
          restock,
          sessionId: session ?? null,
          reason: reason ?? '',
          actor: me,
          locationId: location,
        });
        if ('refused' in done) throw refusal(done);
        const label = refundNumberLabel(done.number);
        await recordAudit(tx, {
          actor: me,
          action: 'refunded',
          entity: { type: 'refund', id: done.id, name: label },
          changes: [
            { field: 'sale', new: saleNumberLabel(done.saleNumber) },
            { field: 'total', new: centsNumber(done.total) },
            { field: 'method', new: method },
            { field: 'restock', new: restock },
            ...(reason ? [{ field: 'reason', new: reason }] : []),
            ...(done.location ? [{ field: 'location', new: done.location }] : []),
          ],
        });
        const refund = await findRefund(runnerOf(tx), done.id);
        if (!refund) throw new Error('a refund just written is found');
        return { status: 201, body: { success: true as const, refund } };
      });
    },
  );

  app.get(
    '/refunds/:id',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['refunds'],
        summary: 'A refund’s receipt (R-000123)',
        description:
          'Every selling role and admins read any refund: the clerk at the counter prints the refund receipt, whoever made the sale.',
        params: IdParams,
        response: { 200: RefundResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const refund = isId(id) ? await findRefund(app.database, id) : undefined;
      if (!refund) throw notFound('Refund');
      return { success: true as const, refund };
    },
  );
};
