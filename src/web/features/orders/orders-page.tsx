import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { OrderListResponse } from '../../../shared/orders';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { api } from '../../lib/api';
import { formatDate, formatMoney } from '../../lib/format';
import { pageOf } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';
import { useSignedInUser } from '../../lib/signed-in';

/** Admin sees every order with who placed it; everyone else sees their own. */
export function OrdersPage() {
  const user = useSignedInUser();
  const isAdmin = user.role === 'admin';
  const list = useQuery({
    queryKey: queryKeys.ordersOf(user._id),
    queryFn: ({ signal }) =>
      api(`/order/${encodeURIComponent(user._id)}`, { schema: OrderListResponse, signal }),
  });
  const [pageNumber, setPageNumber] = useState(1);
  const columns = isAdmin ? 8 : 6;
  const orders = list.data?.orders ?? [];
  const page = pageOf(orders, pageNumber);

  return (
    <>
      <PageHeader title={isAdmin ? 'Orders' : 'My Orders'} />
      <Table caption={isAdmin ? 'All orders' : 'My orders'}>
        <thead>
          <tr>
            <Th>S NO</Th>
            {isAdmin ? (
              <>
                <Th>Name</Th>
                <Th>Address</Th>
              </>
            ) : null}
            <Th>Product Name</Th>
            <Th>Category</Th>
            <Th>Quantity</Th>
            <Th>Total Price</Th>
            <Th>Order Date</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.isPending ? (
            <TableMessage colSpan={columns}>Loading...</TableMessage>
          ) : page.total === 0 ? (
            <TableMessage colSpan={columns}>No orders found</TableMessage>
          ) : (
            page.rows.map((order, index) => (
              <tr key={order._id} className="hover:bg-slate-50">
                <Td className="tabular-nums text-slate-500">{page.offset + index + 1}</Td>
                {isAdmin ? (
                  <>
                    <Td className="font-medium">{order.user.name}</Td>
                    <Td>{order.user.address}</Td>
                  </>
                ) : null}
                <Td className={isAdmin ? '' : 'font-medium'}>{order.product.name}</Td>
                <Td>{order.product.category.name}</Td>
                <Td className="tabular-nums">{order.quantity}</Td>
                <Td className="whitespace-nowrap tabular-nums">{formatMoney(order.totalPrice)}</Td>
                <Td className="whitespace-nowrap">{formatDate(order.orderDate)}</Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Orders" onPage={setPageNumber} />
    </>
  );
}
