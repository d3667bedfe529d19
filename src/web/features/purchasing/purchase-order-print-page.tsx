import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { PRODUCT_NAME } from '../../../shared/product';
import { linesTotal, type PurchaseOrder } from '../../../shared/purchasing';
import type { Supplier } from '../../../shared/suppliers';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { purchaseOrderPath } from '../../lib/admin-paths';
import { formatDate } from '../../lib/format';
import { useLocations } from '../../lib/locations';
import { useMoney } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { STATUS_LABEL } from './purchase-order-status';
import { purchaseOrderQuery, suppliersQuery } from './purchasing-api';

const CELL = 'border-b border-slate-200 px-2 py-2';

/**
 * The purchase order as a document for the supplier. It is printed from this page: the print
 * stylesheet (styles.css) drops the sidebar, and the buttons here are hidden on paper.
 */
export function PurchaseOrderPrintPage() {
  const { id = '' } = useParams();
  const answer = useQuery(purchaseOrderQuery(id));
  const suppliers = useQuery(suppliersQuery());
  const order = answer.data?.purchaseOrder;
  useDocumentTitle(order ? `${order.number} (print)` : 'Purchase order (print)');
  const supplier = suppliers.data?.suppliers.find((one) => one._id === order?.supplier._id);

  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!order}
        >
          Print
        </button>
        <Link to={purchaseOrderPath(id)} className={buttonClass('secondary')}>
          Back to the purchase order
        </Link>
      </div>
      <div className="print:hidden">
        <LoadState query={answer} what="the purchase order" loading="Loading the purchase order...">
          {() => null}
        </LoadState>
      </div>
      {order ? <PrintedOrder order={order} supplier={supplier} /> : null}
    </>
  );
}

function PrintedOrder({ order, supplier }: { order: PurchaseOrder; supplier: Supplier | undefined }) {
  const money = useMoney();
  const locations = useLocations();
  const deliverTo = locations.data?.locations.find((location) => location._id === order.location._id);
  const date = order.orderedAt ?? order.createdAt;
  return (
    <article className="mx-auto max-w-3xl bg-white p-4 sm:p-6 text-sm text-slate-900 shadow-sm ring-1 ring-slate-200 print:max-w-none print:p-0 print:shadow-none print:ring-0">
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Purchase order {order.number}</h1>
          <p className="mt-1 text-slate-600">
            {order.orderedAt ? 'Ordered' : 'Drafted'} <time dateTime={date}>{formatDate(date)}</time>
            {order.status === 'ordered' || order.status === 'draft'
              ? null
              : ` · ${STATUS_LABEL[order.status]}`}
          </p>
        </div>
        <p className="text-right font-semibold">{PRODUCT_NAME}</p>
      </header>
      <section aria-labelledby="print-supplier" className="mb-6">
        <h2 id="print-supplier" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Supplier
        </h2>
        <address className="mt-1 not-italic">
          <span className="block font-semibold">{order.supplier.name}</span>
          {supplier?.address ? <span className="block whitespace-pre-line">{supplier.address}</span> : null}
          {supplier?.email ? <span className="block">{supplier.email}</span> : null}
          {supplier?.phone ? <span className="block">{supplier.phone}</span> : null}
        </address>
      </section>
      <section aria-labelledby="print-deliver-to" className="mb-6">
        <h2 id="print-deliver-to" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
          Deliver to
        </h2>
        <address className="mt-1 not-italic">
          <span className="block font-semibold">{order.location.name}</span>
          {deliverTo?.address ? <span className="block whitespace-pre-line">{deliverTo.address}</span> : null}
        </address>
      </section>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">Lines of {order.number}</caption>
          <thead>
            <tr className="text-xs tracking-wide text-slate-600 uppercase">
              <th scope="col" className={CELL}>
                Product
              </th>
              <th scope="col" className={`${CELL} text-right`}>
                Quantity
              </th>
              <th scope="col" className={`${CELL} text-right`}>
                Unit cost
              </th>
              <th scope="col" className={`${CELL} text-right`}>
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line) => (
              <tr key={line._id} className="break-inside-avoid">
                <td className={CELL}>{line.product.name}</td>
                <td className={`${CELL} text-right tabular-nums`}>{line.quantity}</td>
                <td className={`${CELL} text-right tabular-nums`}>{money(line.unitCost)}</td>
                <td className={`${CELL} text-right tabular-nums`}>{money(linesTotal([line]))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3} className="px-2 py-3 text-right font-semibold">
                Total
              </th>
              <td className="px-2 py-3 text-right font-semibold tabular-nums">{money(order.total)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      {order.note ? (
        <p className="mt-6 whitespace-pre-line">
          <span className="font-semibold">Note: </span>
          {order.note}
        </p>
      ) : null}
    </article>
  );
}
