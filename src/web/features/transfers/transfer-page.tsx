import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Transfer } from '../../../shared/transfers';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { editTransferPath, packingListPath, stockPath, TRANSFERS_PATH } from '../../lib/admin-paths';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ReceiveTransferDialog } from './receive-transfer-dialog';
import { LineLots } from './transfer-lots';
import { inTransitOf, isOpen, TransferStatusBadge, units } from './transfer-status';
import { refusalText, transferQuery, useCancelTransfer, useKeys, useSendTransfer } from './transfers-api';

/** `/transfers/:id`: one transfer, its lines, and the steps its status allows. */
export function TransferPage() {
  const { id = '' } = useParams();
  const answer = useQuery(transferQuery(id));
  const transfer = answer.data?.transfer;
  useDocumentTitle(transfer ? transfer.number : 'Transfer');
  return (
    <>
      <PageHeader title={transfer ? transfer.number : 'Transfer'}>
        {transfer ? (
          <Link to={packingListPath(transfer._id)} className={buttonClass('secondary')}>
            Print packing list
          </Link>
        ) : null}
        <Link to={TRANSFERS_PATH} className={buttonClass('secondary')}>
          Back to Transfers
        </Link>
      </PageHeader>
      <LoadState
        query={answer}
        what="the transfer"
        loading="Loading the transfer..."
        missing="This transfer does not exist."
      >
        {({ transfer: loaded }) => <TransferView transfer={loaded} />}
      </LoadState>
    </>
  );
}

/** Status, the two places, the dates that matter and the note, above the lines. */
function TransferFacts({ transfer }: { transfer: Transfer }) {
  const dates: [string, string | null][] = [
    ['Created', transfer.createdAt],
    ['Sent', transfer.sentAt],
    ['Received', transfer.receivedAt],
    [transfer.status === 'cancelled' ? 'Cancelled' : 'Closed', transfer.closedAt],
  ];
  return (
    <dl className="mb-6 grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-4">
      <div>
        <dt className="text-slate-500">Status</dt>
        <dd className="mt-0.5">
          <TransferStatusBadge status={transfer.status} />
        </dd>
      </div>
      <div>
        <dt className="text-slate-500">From</dt>
        <dd className="mt-0.5 font-medium">{transfer.from.name}</dd>
      </div>
      <div>
        <dt className="text-slate-500">To</dt>
        <dd className="mt-0.5 font-medium">{transfer.to.name}</dd>
      </div>
      {dates.map(([label, at]) =>
        at ? (
          <div key={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="mt-0.5">
              <time dateTime={at}>{formatDateTime(at)}</time>
            </dd>
          </div>
        ) : null,
      )}
      {transfer.createdBy ? (
        <div>
          <dt className="text-slate-500">By</dt>
          <dd className="mt-0.5">{transfer.createdBy.name}</dd>
        </div>
      ) : null}
      {transfer.note ? (
        <div className="col-span-2 sm:col-span-4">
          <dt className="text-slate-500">Note</dt>
          <dd className="mt-0.5 whitespace-pre-line">{transfer.note}</dd>
        </div>
      ) : null}
    </dl>
  );
}

const STACKED_ROW = 'max-sm:grid max-sm:grid-cols-3 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function TransferLines({ transfer }: { transfer: Transfer }) {
  return (
    <Table caption={`Lines of ${transfer.number}`}>
      <thead className="max-sm:sr-only">
        <tr>
          <Th>Product</Th>
          <Th className="text-right">Quantity</Th>
          <Th className="text-right">Sent</Th>
          <Th className="text-right">Received</Th>
          <Th className="text-right">Lost</Th>
          <Th className="text-right">Returned</Th>
          <Th className="text-right">In transit</Th>
          <Th>Lots</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {transfer.lines.map((line) => (
          <tr key={line._id} className={`align-top ${STACKED_ROW}`}>
            <Td className={`font-medium max-sm:col-span-3 ${STACKED_CELL}`}>
              <Link to={stockPath(line.product._id)} className="hover:underline">
                {line.product.name}
              </Link>
            </Td>
            {(
              [
                ['Quantity', line.quantity],
                ['Sent', line.sent],
                ['Received', line.received],
                ['Lost', line.lost],
                ['Returned', line.returned],
                ['In transit', inTransitOf(line)],
              ] as const
            ).map(([label, value]) => (
              <Td key={label} className={`text-right tabular-nums max-sm:text-left ${STACKED_CELL}`}>
                <span className="text-xs text-slate-500 sm:hidden">{label} </span>
                {value}
              </Td>
            ))}
            <Td className={`text-slate-700 max-sm:col-span-3 ${STACKED_CELL}`}>
              <LineLots line={line} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

type Asking = 'send' | 'cancel' | 'close' | null;

/** A transfer and its steps: a draft is edited, sent or cancelled; one on the road is received or closed. */
export function TransferView({ transfer }: { transfer: Transfer }) {
  const keys = useKeys();
  const send = useSendTransfer();
  const cancel = useCancelTransfer();
  const [asking, setAsking] = useState<Asking>(null);
  const [receiving, setReceiving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const onRoad = transfer.lines.reduce((sum, line) => sum + inTransitOf(line), 0);
  const busy = send.isPending || cancel.isPending;

  function run(step: 'send' | 'cancel') {
    const mutation = step === 'send' ? send : cancel;
    setFailure(null);
    mutation.mutate(
      { id: transfer._id, key: keys.keyFor({ [step]: transfer._id }) },
      {
        onSuccess: (answer) => {
          keys.settled();
          const done = answer.transfer;
          notify.success(
            step === 'send'
              ? `${done.number} is on its way to ${done.to.name}.`
              : done.status === 'closed'
                ? `${done.number} is closed; what was in transit is back at ${done.from.name}.`
                : `${done.number} is cancelled.`,
          );
        },
        onError: (error) => {
          keys.settled(error);
          setFailure(refusalText(error));
        },
        onSettled: () => setAsking(null),
      },
    );
  }

  return (
    <>
      <TransferFacts transfer={transfer} />
      {transfer.status === 'draft' || isOpen(transfer.status) ? (
        <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {transfer.status === 'draft' ? (
            <>
              <Link to={editTransferPath(transfer._id)} className={buttonClass('secondary')}>
                Edit
              </Link>
              <button
                type="button"
                className={buttonClass('primary')}
                disabled={busy}
                onClick={() => setAsking('send')}
              >
                Send
              </button>
              <button
                type="button"
                className={buttonClass('secondary')}
                disabled={busy}
                onClick={() => setAsking('cancel')}
              >
                Cancel transfer
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className={buttonClass('primary')}
                disabled={busy || onRoad === 0}
                onClick={() => setReceiving(true)}
              >
                Receive
              </button>
              <button
                type="button"
                className={buttonClass('secondary')}
                disabled={busy}
                onClick={() => setAsking('close')}
              >
                Close transfer
              </button>
            </>
          )}
        </div>
      ) : null}
      <div className="mb-4">
        <FormError>{failure}</FormError>
      </div>
      <TransferLines transfer={transfer} />
      {asking === 'send' ? (
        <ConfirmDialog
          title={`Send ${transfer.number}?`}
          message={`Every line leaves ${transfer.from.name} now and is in transit until ${transfer.to.name} receives it.`}
          confirmLabel="Send"
          busyLabel="Sending..."
          cancelLabel="Not yet"
          busy={send.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run('send')}
        />
      ) : null}
      {asking === 'cancel' ? (
        <ConfirmDialog
          title={`Cancel ${transfer.number}?`}
          message="The draft stays in the list as cancelled and can no longer be changed or sent."
          confirmLabel="Cancel transfer"
          busyLabel="Cancelling..."
          cancelLabel="Keep the draft"
          busy={cancel.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run('cancel')}
        />
      ) : null}
      {asking === 'close' ? (
        <ConfirmDialog
          title={`Close ${transfer.number}?`}
          message={`What is still in transit (${units(onRoad)}) goes back to ${transfer.from.name}, and nothing more can be received.`}
          confirmLabel="Close transfer"
          busyLabel="Closing..."
          cancelLabel="Keep it open"
          busy={cancel.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run('cancel')}
        />
      ) : null}
      {receiving ? <ReceiveTransferDialog transfer={transfer} onClose={() => setReceiving(false)} /> : null}
    </>
  );
}
