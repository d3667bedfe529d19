import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Customer, CustomerSummary } from '../../../shared/customers';
import { can } from '../../../shared/roles';
import { type SaleSummary, saleNumberLabel } from '../../../shared/sales';
import { SALE_METHOD_LABEL } from '../../../shared/till';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { customersPath, salePath } from '../../lib/area-paths';
import { formatCount, formatDateTime } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { useMoney } from '../../lib/store-settings';
import { usePageInRange } from '../../lib/use-paged-list';
import { CustomerFormModal } from './customer-form-modal';
import { customerQuery, customerSalesQuery, PURCHASES_PAGE_SIZE, useDeleteCustomer } from './customers-api';
import { StoreCredit } from './store-credit';

/** `<area>/customers/:id`: who the customer is, what they bought in sum, and each purchase. */
export function CustomerPage() {
  const { id = '' } = useParams();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const answer = useQuery(customerQuery(id));
  const remove = useDeleteCustomer();
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const customer = answer.data?.customer;
  const back = customersPath(me.role);

  return (
    <>
      <PageHeader title={customer ? customer.name : 'Customer'}>
        {customer && can(me.role, 'customers:write') ? (
          <>
            <button type="button" className={buttonClass('secondary')} onClick={() => setDialog('edit')}>
              Edit
            </button>
            <button type="button" className={buttonClass('danger')} onClick={() => setDialog('delete')}>
              Delete
            </button>
          </>
        ) : null}
        <Link to={back} className={buttonClass('secondary')}>
          Back to Customers
        </Link>
      </PageHeader>
      <LoadState
        query={answer}
        what="the customer"
        loading="Loading the customer..."
        missing="No such customer: they may have been deleted."
      >
        {({ customer: shown, summary }) => (
          <>
            <div className="mb-6 grid gap-4 lg:grid-cols-2 lg:items-start">
              <Details customer={shown} />
              <Summary summary={summary} />
            </div>
            <StoreCredit customerId={shown._id} customerName={shown.name} me={me} />
            <Purchases customerId={shown._id} me={me} />
          </>
        )}
      </LoadState>

      {dialog === 'edit' && customer ? (
        <CustomerFormModal customer={customer} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'delete' && customer ? (
        <ConfirmDialog
          title="Delete customer?"
          message={`“${customer.name}” will be deleted. Their past sales keep the name they were sold under.`}
          busy={remove.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={() =>
            remove.mutate(customer._id, {
              onSuccess: () => {
                notify.success('Customer deleted.');
                void navigate(back, { replace: true });
              },
              onSettled: () => setDialog(null),
            })
          }
        />
      ) : null}
    </>
  );
}

const CARD = 'rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-2 py-1.5 sm:grid-cols-[8rem_minmax(0,1fr)]">
      <dt className="text-sm text-slate-500">{term}</dt>
      <dd className="min-w-0 text-sm break-words whitespace-pre-line text-slate-900">{children}</dd>
    </div>
  );
}

const none = <span className="text-slate-400">—</span>;

function Details({ customer }: { customer: Customer }) {
  return (
    <section aria-labelledby="customer-details" className={CARD}>
      <h2 id="customer-details" className="mb-2 text-base font-semibold text-slate-900">
        Details
      </h2>
      <dl className="divide-y divide-slate-100">
        <Detail term="Phone">
          {customer.phone ? (
            <a href={`tel:${customer.phone}`} className="text-indigo-700 hover:underline">
              {customer.phone}
            </a>
          ) : (
            none
          )}
        </Detail>
        <Detail term="Email">
          {customer.email ? (
            <a
              href={`mailto:${customer.email}`}
              className="text-indigo-700 [overflow-wrap:anywhere] hover:underline"
            >
              {customer.email}
            </a>
          ) : (
            none
          )}
        </Detail>
        <Detail term="Address">{customer.address || none}</Detail>
        <Detail term="Note">{customer.note || none}</Detail>
        <Detail term="Customer since">{formatDateTime(customer.createdAt)}</Detail>
      </dl>
    </section>
  );
}

function Tile({ term, wide = false, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div
      className={`rounded-md bg-slate-50 p-3 ring-1 ring-slate-100 ${wide ? 'col-span-2 sm:col-span-1' : ''}`}
    >
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums sm:text-xl">{children}</dd>
    </div>
  );
}

function Summary({ summary }: { summary: CustomerSummary }) {
  const money = useMoney();
  return (
    <section aria-labelledby="customer-summary" className={CARD}>
      <h2 id="customer-summary" className="mb-3 text-base font-semibold text-slate-900">
        Summary
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Tile term="Sales">{formatCount(summary.sales)}</Tile>
        <Tile term="Total spent">{money(summary.totalSpent)}</Tile>
        <Tile term="Last purchase" wide>
          {summary.lastPurchaseAt ? (
            <time dateTime={summary.lastPurchaseAt} className="text-base">
              {formatDateTime(summary.lastPurchaseAt)}
            </time>
          ) : (
            <span className="text-base font-normal text-slate-500">None yet</span>
          )}
        </Tile>
      </dl>
      <p className="mt-3 text-xs text-slate-500">Total spent is net of returns.</p>
    </section>
  );
}

/** On phones a row is a small card: receipt and total, date and payment, seller and lines. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';

/**
 * A receipt number, a link to the receipt for whoever may open it: admins every one, others
 * the sales they made themselves (the server answers them no other receipt).
 */
function Receipt({ sale, me }: { sale: SaleSummary; me: User }) {
  const label = saleNumberLabel(sale.number);
  if (me.role !== 'admin' && sale.seller._id !== me._id) return <span>{label}</span>;
  return (
    <Link to={salePath(me.role, sale._id)} className="text-indigo-700 hover:underline">
      {label}
    </Link>
  );
}

function PurchaseRow({ sale, me }: { sale: SaleSummary; me: User }) {
  const money = useMoney();
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className="whitespace-nowrap font-medium max-sm:p-0">
        <Receipt sale={sale} me={me} />
      </Td>
      <Td className="whitespace-nowrap text-slate-600 max-sm:col-start-1 max-sm:row-start-2 max-sm:p-0 max-sm:text-xs">
        <time dateTime={sale.createdAt}>{formatDateTime(sale.createdAt)}</time>
      </Td>
      <Td className="max-sm:col-start-1 max-sm:row-start-3 max-sm:p-0 max-sm:text-xs max-sm:text-slate-600">
        <span className="sm:hidden">Sold by </span>
        {sale.seller.name}
      </Td>
      <Td className="text-right tabular-nums max-sm:col-start-2 max-sm:row-start-3 max-sm:p-0 max-sm:text-xs max-sm:text-slate-600">
        {sale.lineCount}
        <span className="sm:hidden"> {sale.lineCount === 1 ? 'line' : 'lines'}</span>
      </Td>
      <Td className="whitespace-nowrap text-right font-medium tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
        {money(sale.total)}
      </Td>
      <Td className="whitespace-nowrap max-sm:col-start-2 max-sm:row-start-2 max-sm:p-0 max-sm:text-right max-sm:text-xs max-sm:text-slate-600">
        {SALE_METHOD_LABEL[sale.payment.method]}
      </Td>
    </tr>
  );
}

function Purchases({ customerId, me }: { customerId: string; me: User }) {
  const { page: asked, setPage } = useListAddress();
  const sales = useQuery(customerSalesQuery(customerId, asked));
  const page = serverPage(sales.data && { ...sales.data, rows: sales.data.sales }, {
    page: asked,
    pageSize: PURCHASES_PAGE_SIZE,
  });
  usePageInRange(asked, page.pageCount, sales.isSuccess && !sales.isPlaceholderData, setPage);

  return (
    <section aria-labelledby="customer-purchases">
      <h2 id="customer-purchases" className="mb-3 text-lg font-semibold text-slate-900">
        Purchases
      </h2>
      <Table caption="Purchases, newest first" busy={sales.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Receipt</Th>
            <Th>Date</Th>
            <Th>Sold by</Th>
            <Th className="text-right">Lines</Th>
            <Th className="text-right">Total</Th>
            <Th>Payment</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={sales}
            what="the purchases"
            loading="Loading purchases..."
            colSpan={6}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty="No purchases yet."
          >
            {() => page.rows.map((sale) => <PurchaseRow key={sale._id} sale={sale} me={me} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Purchases" onPage={setPage} />
    </section>
  );
}
