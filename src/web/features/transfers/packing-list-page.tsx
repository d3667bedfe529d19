import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { TRANSFER_STATUS_LABEL, type Transfer, type TransferLine } from '../../../shared/transfers';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { expiryLabel } from '../../components/lot-expiry';
import { transferPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { useStoreSettings } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { transferQuery } from './transfers-api';

const CELL = 'border-b border-slate-300 px-2 py-2 align-top';
const BLANK = `${CELL} w-20 border-l`;

/** What a line carries: what was sent once sent, else what the draft asks for. */
const carried = (transfer: Transfer, line: TransferLine) =>
  transfer.status === 'draft' || transfer.status === 'cancelled' ? line.quantity : line.sent;

/**
 * A transfer as a document that travels with the goods: the store, the number, from, to and the
 * date, each line with its quantity and lots, blank columns to tick at packing and at arrival, and
 * two signatures. Printed from this page: the print stylesheet drops the sidebar and these buttons.
 */
export function PackingListPage() {
  const { id = '' } = useParams();
  const answer = useQuery(transferQuery(id));
  const transfer = answer.data?.transfer;
  useDocumentTitle(transfer ? `${transfer.number} packing list` : 'Packing list');
  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!transfer}
        >
          Print
        </button>
        <Link to={transferPath(id)} className={buttonClass('secondary')}>
          Back to the transfer
        </Link>
      </div>
      <div className="print:hidden">
        <LoadState
          query={answer}
          what="the transfer"
          loading="Loading the transfer..."
          missing="This transfer does not exist."
        >
          {() => null}
        </LoadState>
      </div>
      {transfer ? <PackingList transfer={transfer} /> : null}
    </>
  );
}

function PackingList({ transfer }: { transfer: Transfer }) {
  const store = useStoreSettings().data?.store;
  const date = transfer.sentAt ?? transfer.createdAt;
  return (
    <article className="mx-auto max-w-3xl bg-white p-4 text-sm text-slate-900 shadow-sm ring-1 ring-slate-200 sm:p-6 print:max-w-none print:p-0 print:shadow-none print:ring-0">
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Packing list {transfer.number}</h1>
          <p className="mt-1 text-slate-600">
            {transfer.sentAt ? 'Sent' : 'Drafted'} <time dateTime={date}>{formatDate(date)}</time>
            {transfer.status === 'draft' || transfer.status === 'inTransit'
              ? null
              : ` · ${TRANSFER_STATUS_LABEL[transfer.status]}`}
          </p>
        </div>
        <div className="text-right">
          <p className="font-semibold">{store?.name ?? ''}</p>
          {store?.address ? <p className="whitespace-pre-line text-slate-600">{store.address}</p> : null}
        </div>
      </header>
      <dl className="mb-6 grid grid-cols-2 gap-4">
        <div>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">From</dt>
          <dd className="mt-1 font-semibold">{transfer.from.name}</dd>
        </div>
        <div>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">To</dt>
          <dd className="mt-1 font-semibold">{transfer.to.name}</dd>
        </div>
      </dl>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">Lines of {transfer.number}</caption>
          <thead>
            <tr className="text-xs tracking-wide text-slate-600 uppercase">
              <th scope="col" className={CELL}>
                Product
              </th>
              <th scope="col" className={`${CELL} text-right`}>
                Quantity
              </th>
              <th scope="col" className={CELL}>
                Lots / expiry
              </th>
              <th scope="col" className={BLANK}>
                Packed
              </th>
              <th scope="col" className={BLANK}>
                Checked in
              </th>
            </tr>
          </thead>
          <tbody>
            {transfer.lines.map((line) => (
              <tr key={line._id} className="break-inside-avoid">
                <td className={CELL}>{line.product.name}</td>
                <td className={`${CELL} text-right tabular-nums`}>{carried(transfer, line)}</td>
                <td className={CELL}>
                  {line.lots && line.lots.length > 0
                    ? line.lots.map((lot) => (
                        <span key={lot._id} className="block whitespace-nowrap">
                          {lot.number} ({lot.sent}) · {expiryLabel(lot.expiresOn)}
                        </span>
                      ))
                    : (line.requestedLots ?? []).map((lot) => (
                        <span key={lot.number} className="block whitespace-nowrap">
                          {lot.number} ({lot.quantity})
                        </span>
                      ))}
                </td>
                <td className={BLANK} />
                <td className={BLANK} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {transfer.note ? (
        <p className="mt-6 whitespace-pre-line">
          <span className="font-semibold">Note: </span>
          {transfer.note}
        </p>
      ) : null}
      <section aria-label="Signatures" className="mt-12 grid grid-cols-2 gap-8 break-inside-avoid">
        {[`Packed at ${transfer.from.name} by`, `Received at ${transfer.to.name} by`].map((label) => (
          <div key={label}>
            <div className="h-12 border-b border-slate-400" />
            <p className="mt-1 text-xs text-slate-600">{label} (name, signature, date)</p>
          </div>
        ))}
      </section>
    </article>
  );
}
