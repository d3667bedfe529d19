import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { onePage } from '../../../shared/paging';
import {
  ReceiveTransferInput,
  TransferInput,
  TransferListResponse,
  TransferQuery,
  TransferResponse,
} from '../../../shared/transfers';
import { runnerOf, type Tx } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { notFound } from '../../lib/errors';
import { type Answer, answerOnce } from '../../lib/idempotency';
import { locationFor } from '../locations/location-for';
import {
  cancelTransfer,
  findTransfer,
  insertTransfer,
  receiveTransfer,
  sendTransfer,
  transferPage,
  updateTransfer,
} from './transfers.repository';

const KEYED = 'Accepts an Idempotency-Key.';
const TAGS = ['transfers'];

/** Transfers of stock between locations (DESIGN §17): admins only. */
export const transfersRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The transfer as it is now, in the transaction that changed it. */
  const transferAnswer = async (tx: Tx, id: string, status = 200): Promise<Answer> => {
    const transfer = await findTransfer(runnerOf(tx), id);
    if (!transfer) throw notFound('Transfer');
    return { status, body: { success: true as const, transfer } };
  };

  app.post(
    '/transfers',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'Draft a transfer of stock from one location to another',
        description: `A draft holds nothing. 400 when from and to are one location, a product does not exist or appears twice, or a line's lots are not the product's or do not add up to it; 404 for an unknown location; 409 for an inactive one. ${KEYED}`,
        body: TransferInput,
        response: { 201: TransferResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) =>
        transferAnswer(tx, await insertTransfer(tx, request.body, currentUser(request)), 201),
      ),
  );

  app.get(
    '/transfers',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'Transfers, newest first, by status and by a location they leave or go to',
        querystring: TransferQuery,
        response: { 200: TransferListResponse },
      },
    },
    async (request) => {
      const { status, location } = request.query;
      const window = onePage(request.query);
      const place =
        location === undefined
          ? undefined
          : await locationFor(app.database, location, { inactive: 'allowed' });
      const page = await transferPage(app.database, { status, location: place?.id }, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/transfers/:id',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'One transfer with its lines and the lots they were sent with',
        params: IdParams,
        response: { 200: TransferResponse },
      },
    },
    async (request) => {
      const transfer = await findTransfer(app.database, request.params.id);
      if (!transfer) throw notFound('Transfer');
      return { success: true as const, transfer };
    },
  );

  app.put(
    '/transfers/:id',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'Change a draft’s places, lines and note',
        description: `409 (TRANSFER_STATUS) once it is not a draft. ${KEYED}`,
        params: IdParams,
        body: TransferInput,
        response: { 200: TransferResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        await updateTransfer(tx, request.params.id, request.body, currentUser(request));
        return transferAnswer(tx, request.params.id);
      }),
  );

  app.post(
    '/transfers/:id/send',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'Send a draft: every line leaves `from` at once, and is in transit',
        description: `All lines or none: a line short at \`from\` is a 409 (SHORT_AT_LOCATION) naming the product and the location, with \`elsewhere\`. Lot-tracked lines take the lots they name, else first-expiry-first-out at \`from\`. 409 (TRANSFER_STATUS) unless a draft. ${KEYED}`,
        params: IdParams,
        response: { 200: TransferResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        await sendTransfer(tx, request.params.id, currentUser(request));
        return transferAnswer(tx, request.params.id);
      }),
  );

  app.post(
    '/transfers/:id/receive',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'Receive units at `to`, and write off those lost on the way',
        description: `All lines or none: per line received + lost must not pass what is still in transit (409 TRANSFER_OVER_RECEIVED). Tracked units come from the lots they were sent with, earliest expiry first. 409 (TRANSFER_STATUS) unless in transit or partly received. ${KEYED}`,
        params: IdParams,
        body: ReceiveTransferInput,
        response: { 200: TransferResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        await receiveTransfer(tx, request.params.id, request.body.lines, currentUser(request));
        return transferAnswer(tx, request.params.id);
      }),
  );

  app.post(
    '/transfers/:id/cancel',
    {
      config: { permission: 'transfers:manage' },
      schema: {
        tags: TAGS,
        summary: 'Cancel a draft, or close a sent transfer (what is in transit goes back to `from`)',
        description: `409 (TRANSFER_STATUS) once received, cancelled or closed. ${KEYED}`,
        params: IdParams,
        response: { 200: TransferResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        await cancelTransfer(tx, request.params.id, currentUser(request));
        return transferAnswer(tx, request.params.id);
      }),
  );
};
