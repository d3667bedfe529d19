import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { Loading } from '../../components/spinner';
import { PURCHASE_ORDERS_PATH, purchaseOrderPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { PurchaseOrderForm } from './purchase-order-form';
import { PurchaseOrderView } from './purchase-order-view';
import { purchaseOrderQuery } from './purchasing-api';

function BackLink() {
  return (
    <Link to={PURCHASE_ORDERS_PATH} className={buttonClass('secondary')}>
      Back to Purchase orders
    </Link>
  );
}

/** `/purchase-orders/new` drafts one; `/purchase-orders/:id` edits a draft or shows the order. */
export function PurchaseOrderPage() {
  const { id } = useParams();
  if (!id) {
    return (
      <>
        <PageHeader title="New purchase order">
          <BackLink />
        </PageHeader>
        <PurchaseOrderForm order={null} />
      </>
    );
  }
  return <SavedPurchaseOrder id={id} />;
}

function SavedPurchaseOrder({ id }: { id: string }) {
  const answer = useQuery(purchaseOrderQuery(id));
  const order = answer.data?.purchaseOrder;
  return (
    <>
      <PageHeader title={order ? order.number : 'Purchase order'}>
        {order ? (
          <Link to={`${purchaseOrderPath(order._id)}/print`} className={buttonClass('secondary')}>
            Print
          </Link>
        ) : null}
        <BackLink />
      </PageHeader>
      {answer.isPending ? (
        <Loading label="Loading the purchase order..." />
      ) : answer.isError && !order ? (
        <div role="alert" className="space-y-2 rounded-md bg-red-50 p-4 text-sm text-red-800">
          <p>The purchase order could not be loaded: {errorMessage(answer.error)}</p>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={() => void answer.refetch()}
          >
            Try again
          </button>
        </div>
      ) : order?.status === 'draft' ? (
        <PurchaseOrderForm key={order._id} order={order} />
      ) : order ? (
        <PurchaseOrderView order={order} />
      ) : null}
    </>
  );
}
