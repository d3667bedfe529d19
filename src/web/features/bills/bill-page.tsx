import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Bill, type BillLine, PAYABLE_STATUSES } from '../../../shared/bills';
import { taxRateLabel } from '../../../shared/store';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError } from '../../components/form-field';
import { JournalLink } from '../../components/journal-link';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { BILLS_PATH, editBillPath, payBillsPath, purchaseOrderPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { BillStatusBadge, METHOD_LABEL, NUMBER, OverdueMark } from './bill-status';
import { billQuery, useBillAction, useDeleteBill, useKeys } from './bills-api';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function BillFacts({ bill }: { bill: Bill }) {
  return (
    <dl className="mb-6 grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-3 lg:grid-cols-6">
      <Fact label="Status">
        <BillStatusBadge status={bill.status} />
      </Fact>
      <Fact label="Supplier">{bill.supplier.name}</Fact>
      <Fact label="Supplier’s reference">{bill.reference}</Fact>
      <Fact label="Bill date">
        <time dateTime={bill.date}>{formatDate(bill.date)}</time>
      </Fact>
      <Fact label="Due">
        <time dateTime={bill.dueDate}>{formatDate(bill.dueDate)}</time>
        <OverdueMark bill={bill} />
      </Fact>
      {bill.postedAt ? (
        <Fact label="Posted">
          <time dateTime={bill.postedAt}>{formatDateTime(bill.postedAt)}</time>
        </Fact>
      ) : null}
      {bill.voidedAt ? (
        <Fact label="Voided">
          <time dateTime={bill.voidedAt}>{formatDateTime(bill.voidedAt)}</time>
        </Fact>
      ) : null}
    </dl>
  );
}

const STACKED_ROW = 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const CELL = 'max-sm:p-0';

/** What a line bills: its purchase order's product (a link to the order), or its own words. */
function LineWhat({ line }: { line: BillLine }) {
  const money = useMoney();
  const on = line.purchaseOrderLine;
  return (
    <>
      <span className="block font-medium text-slate-900">{line.description || on?.product.name}</span>
      {on ? (
        <span className="block text-xs text-slate-500">
          On{' '}
          <Link
            to={purchaseOrderPath(on.purchaseOrder._id)}
            className="whitespace-nowrap text-indigo-700 hover:underline"
          >
            {on.purchaseOrder.number}
          </Link>
          {line.unitPrice !== on.unitCost ? `, ordered at ${money(on.unitCost)}` : ''}
        </span>
      ) : null}
    </>
  );
}

function BillLines({ bill }: { bill: Bill }) {
  const money = useMoney();
  const totals: [string, number][] = [
    ['Net', bill.net],
    ['Tax', bill.tax],
    ['Total', bill.total],
  ];
  if (bill.status !== 'draft' && bill.status !== 'void')
    totals.push(['Paid', bill.paid], ['Open', bill.open]);
  return (
    <Table caption={`Lines of ${bill.number}`}>
      <thead className="max-sm:sr-only">
        <tr>
          <Th>Line</Th>
          <Th>Account</Th>
          <Th>Tax</Th>
          <Th className="text-right">Quantity</Th>
          <Th className="text-right">Unit price</Th>
          <Th className="text-right">Net</Th>
          <Th className="text-right">Line tax</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {bill.lines.map((line) => (
          <tr key={line._id} className={STACKED_ROW}>
            <Td className={`max-sm:col-span-2 ${CELL}`}>
              <LineWhat line={line} />
            </Td>
            <Td className={`text-slate-700 max-sm:col-span-2 max-sm:text-xs ${CELL}`}>
              <span className="font-mono text-xs text-slate-600">{line.account.code}</span>{' '}
              {line.account.name}
            </Td>
            <Td className={`whitespace-nowrap text-slate-700 max-sm:text-xs ${CELL}`}>
              <span className="sm:hidden">Tax </span>
              {line.taxRate ? taxRateLabel(line.taxRate) : 'No tax'}
            </Td>
            <Td className={`${NUMBER} max-sm:text-left ${CELL}`}>
              <span className="text-xs text-slate-500 sm:hidden">Quantity </span>
              {line.quantity}
            </Td>
            <Td className={`${NUMBER} max-sm:text-left ${CELL}`}>
              <span className="text-xs text-slate-500 sm:hidden">Unit price </span>
              {money(line.unitPrice)}
            </Td>
            <Td className={`${NUMBER} font-medium max-sm:text-left ${CELL}`}>
              <span className="text-xs font-normal text-slate-500 sm:hidden">Net </span>
              {money(line.net)}
            </Td>
            <Td className={`${NUMBER} max-sm:text-left ${CELL}`}>
              <span className="text-xs text-slate-500 sm:hidden">Tax </span>
              {money(line.tax)}
            </Td>
          </tr>
        ))}
      </tbody>
      <tfoot className="border-t border-slate-200 bg-slate-50">
        {totals.map(([label, value]) => (
          <tr key={label} className="max-sm:flex max-sm:justify-between max-sm:px-3 max-sm:py-1.5">
            <th
              scope="row"
              colSpan={6}
              className={`px-3 py-2 text-left sm:px-4 sm:text-right max-sm:p-0 ${label === 'Total' || label === 'Open' ? 'font-semibold' : 'font-medium'}`}
            >
              {label}
            </th>
            <td
              className={`px-3 py-2 sm:px-4 max-sm:p-0 ${NUMBER} ${label === 'Total' || label === 'Open' ? 'font-semibold' : ''}`}
            >
              {money(value)}
            </td>
          </tr>
        ))}
      </tfoot>
    </Table>
  );
}

function BillPayments({ bill }: { bill: Bill }) {
  const money = useMoney();
  const payments = bill.payments ?? [];
  if (bill.status === 'draft') return null;
  return (
    <section aria-labelledby="bill-payments" className="mt-8">
      <h2 id="bill-payments" className="mb-3 text-lg font-semibold text-slate-900">
        Payments
      </h2>
      {payments.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-6 text-sm text-slate-600">
          Nothing paid on this bill yet.
        </p>
      ) : (
        <Table caption={`Payments allocated to ${bill.number}`}>
          <thead>
            <tr>
              <Th>Payment</Th>
              <Th>Date</Th>
              <Th className="max-sm:hidden">Method</Th>
              <Th className="text-right max-sm:hidden">Payment amount</Th>
              <Th className="text-right">To this bill</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {payments.map((payment) => (
              <tr key={payment._id}>
                <th scope="row" className="px-3 py-2.5 text-left font-medium whitespace-nowrap sm:px-4">
                  {payment.number}
                </th>
                <Td className="whitespace-nowrap">
                  <time dateTime={payment.date}>{formatDate(payment.date)}</time>
                </Td>
                <Td className="max-sm:hidden">{METHOD_LABEL[payment.method]}</Td>
                <Td className={`${NUMBER} max-sm:hidden`}>{money(payment.amount)}</Td>
                <Td className={`${NUMBER} font-medium`}>{money(payment.allocated)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

type Confirming = 'post' | 'void' | 'delete' | null;

/** A bill's steps, each shown only where its status allows it, each asked before it is done. */
function BillActions({ bill }: { bill: Bill }) {
  const navigate = useNavigate();
  const post = useBillAction('post');
  const voiding = useBillAction('void');
  const remove = useDeleteBill();
  const keys = useKeys();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const busy = post.isPending || voiding.isPending || remove.isPending;
  const draft = bill.status === 'draft';
  const voidable = bill.status === 'posted' && bill.paid === 0;
  const payable = (PAYABLE_STATUSES as readonly string[]).includes(bill.status);

  function act(which: 'post' | 'void') {
    setRefusal(null);
    const mutation = which === 'post' ? post : voiding;
    const key = keys.keyFor({ [which]: bill._id });
    mutation.mutate(
      { id: bill._id, key },
      {
        onSuccess: ({ bill: done }) => {
          keys.settled();
          notify.success(
            which === 'post'
              ? `${done.number} is posted: ${done.supplier.name} is owed it.`
              : `${done.number} is void: its entry is reversed.`,
          );
        },
        onError: (error) => {
          keys.settled(error);
          setRefusal(errorMessage(error));
        },
        onSettled: () => setConfirming(null),
      },
    );
  }

  function deleteDraft() {
    setRefusal(null);
    remove.mutate(bill._id, {
      onSuccess: () => {
        notify.success(`${bill.number} is deleted.`);
        navigate(BILLS_PATH, { replace: true });
      },
      onError: (error) => {
        setRefusal(errorMessage(error));
        setConfirming(null);
      },
    });
  }

  if (!draft && !voidable && !payable) return <FormError>{refusal}</FormError>;
  return (
    <>
      <div className="mt-4">
        <FormError>{refusal}</FormError>
      </div>
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {draft ? (
          <>
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={busy}
              onClick={() => setConfirming('delete')}
            >
              Delete draft
            </button>
            <Link to={editBillPath(bill._id)} className={buttonClass('secondary')}>
              Edit
            </Link>
            <button
              type="button"
              className={buttonClass('primary')}
              disabled={busy}
              onClick={() => setConfirming('post')}
            >
              Post
            </button>
          </>
        ) : null}
        {voidable ? (
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={busy}
            onClick={() => setConfirming('void')}
          >
            Void
          </button>
        ) : null}
        {payable ? (
          <Link to={payBillsPath(bill.supplier._id)} className={buttonClass('primary')}>
            Pay
          </Link>
        ) : null}
      </div>
      {confirming === 'post' ? (
        <ConfirmDialog
          title={`Post ${bill.number}?`}
          message={`Its entry is dated ${formatDate(bill.date)}: ${bill.supplier.name} is owed its total, and it can no longer be changed, only voided while nothing is paid.`}
          confirmLabel="Post"
          busyLabel="Posting..."
          cancelLabel="Not yet"
          busy={post.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() => act('post')}
        />
      ) : null}
      {confirming === 'void' ? (
        <ConfirmDialog
          title={`Void ${bill.number}?`}
          message="Its entry is reversed by a new one dated today, and nothing is owed on it any more. A void bill stays in the list."
          confirmLabel="Void"
          busyLabel="Voiding..."
          cancelLabel="Keep it"
          busy={voiding.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() => act('void')}
        />
      ) : null}
      {confirming === 'delete' ? (
        <ConfirmDialog
          title={`Delete ${bill.number}?`}
          message="The draft is gone for good; nothing was posted for it."
          confirmLabel="Delete draft"
          busy={remove.isPending}
          cancelLabel="Keep the draft"
          onCancel={() => setConfirming(null)}
          onConfirm={deleteDraft}
        />
      ) : null}
    </>
  );
}

/** Admin: one supplier's bill (DESIGN §20): its facts, lines and totals, its payments and its entries. */
export function BillPage() {
  const { id = '' } = useParams();
  const answer = useQuery(billQuery(id));
  const bill = answer.data?.bill;
  return (
    <>
      <PageHeader title={bill ? `Bill ${bill.number}` : 'Bill'}>
        {bill?.entry ? <JournalLink entry={bill.entry} label={`Journal entry ${bill.entry.number}`} /> : null}
        {bill?.voidEntry ? (
          <JournalLink entry={bill.voidEntry} label={`Void entry ${bill.voidEntry.number}`} />
        ) : null}
        <Link to={BILLS_PATH} className={buttonClass('secondary')}>
          Back to Bills
        </Link>
      </PageHeader>
      <LoadState
        query={answer}
        what="the bill"
        loading="Loading the bill..."
        missing="This bill does not exist (a draft may have been deleted)."
      >
        {({ bill: shown }) => (
          <>
            <BillFacts bill={shown} />
            {shown.note ? (
              <p className="mb-4 text-sm break-words whitespace-pre-line">
                <span className="text-slate-500">Note: </span>
                {shown.note}
              </p>
            ) : null}
            <BillLines bill={shown} />
            <BillActions bill={shown} />
            <BillPayments bill={shown} />
          </>
        )}
      </LoadState>
    </>
  );
}
