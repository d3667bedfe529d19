import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { buttonClass } from '../../components/button';
import { JournalLink } from '../../components/journal-link';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { PURCHASE_ORDERS_PATH, purchaseOrderPath } from '../../lib/admin-paths';
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
        {order && order.status !== 'draft' ? <JournalLink source="receipt" sourceId={order._id} /> : null}
        <BackLink />
      </PageHeader>
      <LoadState query={answer} what="the purchase order" loading="Loading the purchase order...">
        {({ purchaseOrder }) =>
          purchaseOrder.status === 'draft' ? (
            <PurchaseOrderForm key={purchaseOrder._id} order={purchaseOrder} />
          ) : (
            <PurchaseOrderView order={purchaseOrder} />
          )
        }
      </LoadState>
    </>
  );
}
