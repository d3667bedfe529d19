import { z } from 'zod';
import { Named, Ok, optionalText } from './common';
import { LocationId, LocationName } from './locations';
import { LotNumber } from './lots';
import { PageInfo, PageQuery } from './paging';

/**
 * Transfers between locations (DESIGN §17, decision 0043): draft → inTransit → partiallyReceived →
 * received; a draft cancelled, a sent one closed (what is still on the road goes back to `from`).
 */

export const TRANSFER_STATUSES = [
  'draft',
  'inTransit',
  'partiallyReceived',
  'received',
  'cancelled',
  'closed',
] as const;
export const TransferStatus = z.enum(TRANSFER_STATUSES, {
  error: `status must be one of ${TRANSFER_STATUSES.join(', ')}.`,
});
export type TransferStatus = z.infer<typeof TransferStatus>;
export const TRANSFER_STATUS_LABEL: Record<TransferStatus, string> = {
  draft: 'Draft',
  inTransit: 'In transit',
  partiallyReceived: 'Partly received',
  received: 'Received',
  cancelled: 'Cancelled',
  closed: 'Closed',
};

/** TR-000001 */
export const transferNumber = (n: number): string => `TR-${String(n).padStart(6, '0')}`;

export const MAX_TRANSFER_LINES = 500;
export const MAX_TRANSFER_NOTE = 500;

const Units = (label: string, min: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .int({ error: `${label} must be a whole number.` })
    .min(min, { error: `${label} must be at least ${min}.` })
    .max(1_000_000, { error: `${label} must be at most 1,000,000.` });

/** An id a line names (a product, a transfer's line), with a sentence for each way it can be wrong. */
const NamedId = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .min(1, { error: `${label} must not be empty.` })
    .max(100, { error: `${label} must be at most 100 characters.` });

export const TransferLotInput = z.object({ number: LotNumber, quantity: Units('Lot quantity', 1) });

export const TransferLineInput = z.object({
  product: NamedId('product'),
  quantity: Units('Quantity', 1),
  /** A tracked product's lots to send (their quantities add up to the line's); absent: FEFO at `from`. */
  lots: z.array(TransferLotInput).max(50, { error: 'A line may name at most 50 lots.' }).optional(),
});

export const TransferInput = z.object({
  from: LocationId,
  to: LocationId,
  lines: z
    .array(TransferLineInput, { error: 'lines must be a list.' })
    .min(1, { error: 'A transfer needs at least one line.' })
    .max(MAX_TRANSFER_LINES, { error: `A transfer may have at most ${MAX_TRANSFER_LINES} lines.` }),
  note: optionalText(MAX_TRANSFER_NOTE).default(''),
});
export type TransferInput = z.input<typeof TransferInput>;

export const ReceiveTransferInput = z.object({
  lines: z
    .array(
      z.object({
        line: NamedId('line'),
        received: Units('Received', 0),
        lost: Units('Lost', 0).default(0),
      }),
      { error: 'lines must be a list.' },
    )
    .min(1, { error: 'Receive at least one line.' })
    .max(MAX_TRANSFER_LINES, { error: `At most ${MAX_TRANSFER_LINES} lines.` }),
});
export type ReceiveTransferInput = z.input<typeof ReceiveTransferInput>;

export const TransferLineLot = z.object({
  _id: z.string(),
  number: z.string(),
  expiresOn: z.string().nullable(),
  sent: z.number().int(),
  received: z.number().int(),
  lost: z.number().int(),
  returned: z.number().int(),
});

export const TransferLine = z.object({
  _id: z.string(),
  product: Named,
  quantity: z.number().int(),
  sent: z.number().int(),
  received: z.number().int(),
  lost: z.number().int(),
  /** Gone back to `from` when a sent transfer was closed. */
  returned: z.number().int(),
  /** The draft's named lots. */
  requestedLots: z.array(z.object({ number: z.string(), quantity: z.number().int() })).optional(),
  /** The lots it was sent with (tracked products, once sent). */
  lots: z.array(TransferLineLot).optional(),
});
export type TransferLine = z.infer<typeof TransferLine>;

export const Transfer = z.object({
  _id: z.string(),
  number: z.string(),
  from: LocationName,
  to: LocationName,
  status: TransferStatus,
  lines: z.array(TransferLine),
  note: z.string(),
  createdBy: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type Transfer = z.infer<typeof Transfer>;

/** A transfer in the list: its totals instead of its lines. */
export const TransferSummary = Transfer.omit({ lines: true }).extend({
  lineCount: z.number().int(),
  units: z.number().int(),
  inTransit: z.number().int(),
});
export type TransferSummary = z.infer<typeof TransferSummary>;

export const TransferResponse = Ok.extend({ transfer: Transfer });
export type TransferResponse = z.infer<typeof TransferResponse>;
export const TransferListResponse = Ok.extend({ transfers: z.array(TransferSummary) }).merge(PageInfo);
export type TransferListResponse = z.infer<typeof TransferListResponse>;

export const TransferQuery = PageQuery.pick({ page: true, pageSize: true }).extend({
  status: TransferStatus.optional(),
  /** Transfers from or to this location. */
  location: LocationId.optional(),
});
export type TransferQuery = z.input<typeof TransferQuery>;
