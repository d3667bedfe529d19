import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Order, OrderListResponse, type OrderQuery } from '../../../shared/orders';
import { can, type Role } from '../../../shared/roles';
import { saleNumberLabel } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { DownloadCsvButton } from '../../components/download-csv';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { ReturnDialog, returnMark } from '../../components/return-dialog';
import {
  CARD_BUTTON,
  Card,
  CardActions,
  CardField,
  CardFields,
  CardList,
  Table,
  Td,
  Th,
  useCardLayout,
} from '../../components/table';
import { api } from '../../lib/api';
import { customerPath, salePath } from '../../lib/area-paths';
import { formatDate } from '../../lib/format';
import { isPastEnd, serverPage, withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';
import { useSignedInUser } from '../../lib/signed-in';
import { useMoney } from '../../lib/store-settings';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';

/**
 * The sale an order is a line of, as its receipt number (a link to the receipt), and the sale's
 * customer by name (a link to them while they exist).
 */
function SaleCell({ order, role }: { order: Order; role: Role }) {
  if (!order.sale && !order.customer) return <span className="text-slate-400">—</span>;
  return (
    <>
      {order.sale ? (
        <Link
          to={salePath(role, order.sale._id)}
          className="font-medium whitespace-nowrap text-indigo-700 hover:underline"
        >
          {saleNumberLabel(order.sale.number)}
        </Link>
      ) : null}
      {order.sale && order.customer ? ' ' : null}
      {order.customer ? (
        <span className="block text-xs text-slate-500">
          {order.customer._id ? (
            <Link
              to={customerPath(role, order.customer._id)}
              className="hover:text-indigo-700 hover:underline"
            >
              {order.customer.name}
            </Link>
          ) : (
            order.customer.name
          )}
        </span>
      ) : null}
    </>
  );
}

/** The quantity, with "Returned" or "n returned" beside it once goods came back. */
function Quantity({ order }: { order: Order }) {
  const mark = returnMark(order);
  return (
    <>
      {order.quantity}
      {mark ? (
        <span className="ml-2 whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
          {mark}
        </span>
      ) : null}
    </>
  );
}

/** The customer of the order's sale, a link to them while they exist. */
function CustomerName({ order, role }: { order: Order; role: Role }) {
  if (!order.customer) return <span className="text-slate-400">—</span>;
  return order.customer._id ? (
    <Link to={customerPath(role, order.customer._id)} className="text-indigo-700 hover:underline">
      {order.customer.name}
    </Link>
  ) : (
    order.customer.name
  );
}

/**
 * One order as a card on phones: what was sold, how many, for how much and when first, then
 * whom it was sold to and its receipt, and (for the admin) the staff member who sold it last.
 */
function OrderCard({
  order,
  role,
  isAdmin,
  onReturn,
}: {
  order: Order;
  role: Role;
  isAdmin: boolean;
  onReturn: () => void;
}) {
  const money = useMoney();
  return (
    <Card>
      <h2 className="font-semibold break-words text-slate-900">{order.product.name}</h2>
      <CardFields>
        <CardField label="Quantity">
          <span className="tabular-nums">
            <Quantity order={order} />
          </span>
        </CardField>
        <CardField label="Total Price">
          <span className="font-semibold tabular-nums">{money(order.totalPrice)}</span>
        </CardField>
        <CardField label="Order Date">{formatDate(order.orderDate)}</CardField>
        <CardField label="Customer">
          <CustomerName order={order} role={role} />
        </CardField>
        {order.sale ? (
          <CardField label="Receipt">
            <Link
              to={salePath(role, order.sale._id)}
              className="font-medium whitespace-nowrap text-indigo-700 hover:underline"
            >
              {saleNumberLabel(order.sale.number)}
            </Link>
          </CardField>
        ) : null}
        <CardField label="Category">{order.product.category.name}</CardField>
        {isAdmin ? (
          <CardField label="Ordered by" wide>
            {order.user.name}
            {order.user.address ? (
              <span className="block text-xs text-slate-500">{order.user.address}</span>
            ) : null}
          </CardField>
        ) : null}
      </CardFields>
      {isAdmin && order.status !== 'returned' ? (
        <CardActions>
          <button
            type="button"
            className={buttonClass('secondary', 'sm', CARD_BUTTON)}
            onClick={onReturn}
            aria-label={`Return ${order.product.name} ordered by ${order.user.name}`}
          >
            Return
          </button>
        </CardActions>
      ) : null}
    </Card>
  );
}

/** Admin sees every order with who placed it; everyone else sees their own. Newest first. */
export function OrdersPage() {
  const money = useMoney();
  const user = useSignedInUser();
  const isAdmin = user.role === 'admin';
  const paging = usePagedList();
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const query: OrderQuery = { search: paging.search || undefined, ...asked };
  const list = useQuery({
    queryKey: queryKeys.orderPage(user._id, query),
    queryFn: ({ signal }) =>
      api(withQuery(`/order/${encodeURIComponent(user._id)}`, query), {
        schema: OrderListResponse,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const [returning, setReturning] = useState<Order | null>(null);
  const columns = isAdmin ? 10 : 7;
  const cards = useCardLayout();
  const page = serverPage(list.data && { ...list.data, rows: list.data.orders }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title={isAdmin ? 'Orders' : 'My Orders'}>
        {can(user.role, 'exports:read') ? (
          <DownloadCsvButton
            path={withQuery(`/order/${encodeURIComponent(user._id)}`, { search: query.search })}
            filename="orders.csv"
          />
        ) : null}
      </PageHeader>
      <div className="mb-4">
        <SearchField
          value={paging.text}
          onChange={paging.setText}
          placeholder={isAdmin ? 'Search orders by product or user...' : 'Search orders by product...'}
          maxLength={SEARCH_MAX_LENGTH}
        />
      </div>
      {cards ? (
        <LoadState
          query={list}
          what="the orders"
          waiting={isPastEnd(page)}
          isEmpty={() => page.total === 0}
          empty="No orders found"
        >
          {() => (
            <CardList caption={isAdmin ? 'All orders' : 'My orders'} busy={list.isPlaceholderData}>
              {page.rows.map((order) => (
                <OrderCard
                  key={order._id}
                  order={order}
                  role={user.role}
                  isAdmin={isAdmin}
                  onReturn={() => setReturning(order)}
                />
              ))}
            </CardList>
          )}
        </LoadState>
      ) : (
        <Table caption={isAdmin ? 'All orders' : 'My orders'} busy={list.isPlaceholderData}>
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
              <Th>Sale</Th>
              {isAdmin ? <Th stickyEnd>Actions</Th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            <LoadState
              query={list}
              what="the orders"
              colSpan={columns}
              waiting={isPastEnd(page)}
              isEmpty={() => page.total === 0}
              empty="No orders found"
            >
              {() =>
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
                    <Td className="tabular-nums">
                      <Quantity order={order} />
                    </Td>
                    <Td className="whitespace-nowrap tabular-nums">{money(order.totalPrice)}</Td>
                    <Td className="whitespace-nowrap">{formatDate(order.orderDate)}</Td>
                    <Td>
                      <SaleCell order={order} role={user.role} />
                    </Td>
                    {isAdmin ? (
                      <Td stickyEnd>
                        {order.status === 'returned' ? (
                          // On phones the Quantity column with its mark may be scrolled away.
                          <span className="text-xs text-slate-500 sm:hidden">Returned</span>
                        ) : (
                          <button
                            type="button"
                            className={buttonClass('secondary', 'sm')}
                            onClick={() => setReturning(order)}
                            aria-label={`Return ${order.product.name} ordered by ${order.user.name}`}
                          >
                            Return
                          </button>
                        )}
                      </Td>
                    ) : null}
                  </tr>
                ))
              }
            </LoadState>
          </tbody>
        </Table>
      )}
      <Pager page={page} label="Orders" onPage={paging.setPage} />
      {returning ? <ReturnDialog order={returning} onClose={() => setReturning(null)} /> : null}
    </>
  );
}
