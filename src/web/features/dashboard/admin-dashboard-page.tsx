import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DashboardResponse } from '../../../shared/dashboard';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { REORDER_PATH } from '../../lib/admin-paths';
import { api } from '../../lib/api';
import { formatCount, formatMoney } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';

function Tile({ label, value, accent }: { label: string; value: string; accent: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className={`mt-2 text-2xl font-bold tabular-nums sm:text-3xl ${accent}`}>{value}</dd>
    </div>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="mb-3 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-500">{children}</p>;
}

/** How many products to reorder (stock and what is on order at or below their reorder point). */
function ReorderLink({ count }: { count: number }) {
  const products = `${formatCount(count)} ${count === 1 ? 'product' : 'products'}`;
  return (
    <Link
      to={REORDER_PATH}
      className={`mt-4 flex items-center justify-between gap-3 rounded-lg border p-4 shadow-sm hover:bg-slate-50 sm:p-5 ${count > 0 ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}
    >
      <span>
        <span className="block text-sm font-medium text-slate-600">To reorder</span>
        <span
          className={`text-2xl font-bold tabular-nums ${count > 0 ? 'text-amber-800' : 'text-slate-900'}`}
        >
          {products}
        </span>
      </span>
      <span className="text-sm font-medium text-indigo-700" aria-hidden="true">
        Reorder suggestions →
      </span>
    </Link>
  );
}

/** Admin: today's numbers and the stock that needs attention. */
export function AdminDashboardPage() {
  const dashboard = useQuery({
    queryKey: queryKeys.dashboard,
    queryFn: ({ signal }) => api('/dashboard', { schema: DashboardResponse, signal }),
  });

  return (
    <>
      <PageHeader title="Dashboard" />
      <LoadState query={dashboard} what="the dashboard">
        {(figures) => (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
              <Tile
                label="Total Products"
                value={formatCount(figures.totalProducts)}
                accent="text-slate-900"
              />
              <Tile label="Total Stock" value={formatCount(figures.totalStock)} accent="text-slate-900" />
              <Tile label="Order Today" value={formatCount(figures.ordersToday)} accent="text-indigo-700" />
              <Tile label="Revenue" value={formatMoney(figures.revenue)} accent="text-green-700" />
            </dl>
            <ReorderLink count={figures.toReorder} />
            <div className="mt-6 grid gap-4 lg:grid-cols-3">
              <Card title="Out of Stock Products">
                {figures.outOfStock.length === 0 ? (
                  <Empty>No products out of stock.</Empty>
                ) : (
                  <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto pr-1">
                    {figures.outOfStock.map((product) => (
                      <li key={product._id} className="flex justify-between gap-3 py-2 text-sm">
                        <span className="font-medium text-red-700">{product.name}</span>
                        <span className="shrink-0 text-right text-slate-500">{product.category.name}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
              <Card title="Highest Sale Product">
                {'message' in figures.highestSaleProduct ? (
                  <Empty>{figures.highestSaleProduct.message}</Empty>
                ) : (
                  <dl className="space-y-2 text-sm">
                    <div className="flex justify-between gap-3">
                      <dt className="text-slate-500">Name</dt>
                      <dd className="font-medium">{figures.highestSaleProduct.name}</dd>
                    </div>
                    <div className="flex justify-between gap-3">
                      <dt className="text-slate-500">Category</dt>
                      <dd>{figures.highestSaleProduct.category}</dd>
                    </div>
                    <div className="flex justify-between gap-3">
                      <dt className="text-slate-500">Total Units Sold</dt>
                      <dd className="font-semibold tabular-nums">
                        {formatCount(figures.highestSaleProduct.totalQuantity)}
                      </dd>
                    </div>
                  </dl>
                )}
              </Card>
              <Card title="Low Stock Products">
                {figures.lowStock.length === 0 ? (
                  <Empty>No low stock products.</Empty>
                ) : (
                  <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto pr-1">
                    {figures.lowStock.map((product) => (
                      <li key={product._id} className="flex justify-between gap-3 py-2 text-sm">
                        <span>
                          <span className="font-medium">{product.name}</span>{' '}
                          <span className="whitespace-nowrap text-yellow-700">- {product.stock} left</span>
                        </span>
                        <span className="shrink-0 text-right text-slate-500">{product.category.name}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
            </div>
          </>
        )}
      </LoadState>
    </>
  );
}
