import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DashboardResponse } from '../../../shared/dashboard';
import { EXPIRING_DAYS } from '../../../shared/lots';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { EXPIRING_PATH, REORDER_PATH } from '../../lib/admin-paths';
import { api } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';
import { useMoney } from '../../lib/store-settings';

/**
 * A figure's value, as large as its box allows: the box is a size container, and the figure's font
 * shrinks with the box's width (cqi) for a long sum, from `--figure-max` (set by the tile) down
 * to what lets its widest characters fit. Should it still not fit, it wraps between any two
 * characters rather than leaving its box.
 */
function Figure({ value, className }: { value: string; className: string }) {
  // In the fonts in use (system-ui; DejaVu Sans is the widest) a bold digit or sign is at most
  // 0.7 em wide, a separator 0.4 em.
  const ems = [...value].reduce((width, char) => width + ('.,'.includes(char) ? 0.4 : 0.7), 0);
  const fontSize = `min(var(--figure-max), ${(100 / Math.max(ems, 1)).toFixed(2)}cqi)`;
  return (
    <dd className={`@container min-w-0 ${className}`}>
      <span
        className="block font-bold leading-tight tabular-nums [overflow-wrap:anywhere]"
        style={{ fontSize }}
      >
        {value}
      </span>
    </dd>
  );
}

/** A figure with its label, and a caption under it saying what it covers (e.g. "all time"). */
function Tile({
  label,
  value,
  accent,
  caption,
}: {
  label: string;
  value: string;
  accent: string;
  caption?: string;
}) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm [--figure-max:1.5rem] sm:p-5 lg:[--figure-max:1.875rem]">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <Figure value={value} className={`mt-2 ${accent}`} />
      {caption ? <dd className="mt-1 text-xs text-slate-500">{caption}</dd> : null}
    </div>
  );
}

function Card({ title, caption, children }: { title: string; caption?: string; children: ReactNode }) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={id} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {caption ? <p className="text-xs text-slate-500">{caption}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** The store's day so far: its sales, their revenue net of returns, and the average basket. */
function TodayStrip({ today }: { today: DashboardResponse['today'] }) {
  const money = useMoney();
  const figures = [
    { label: 'Sales today', value: formatCount(today.sales) },
    { label: 'Revenue today', value: money(today.revenue) },
    { label: 'Average basket', value: money(today.averageBasket) },
  ];
  return (
    <section
      aria-label="Today"
      className="mt-4 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm sm:px-5"
    >
      {/* One figure a row on a phone (label, then value at the row's end); three columns from sm. */}
      <dl className="grid gap-2 sm:grid-cols-3 sm:gap-4">
        {figures.map((figure) => (
          <div
            key={figure.label}
            className="flex min-w-0 items-baseline justify-between gap-3 [--figure-max:1.125rem] sm:block"
          >
            <dt className="shrink-0 text-sm font-medium text-slate-600">{figure.label}</dt>
            <Figure value={figure.value} className="flex-1 text-right text-slate-900 sm:mt-1 sm:text-left" />
          </div>
        ))}
      </dl>
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
      className={`flex items-center justify-between gap-3 rounded-lg border p-4 shadow-sm hover:bg-slate-50 sm:p-5 ${count > 0 ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}
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

/**
 * The lots holding units that expire within EXPIRING_DAYS (30) days, expired ones included (DESIGN §15): how many
 * and their value at cost, linking to the expiring list.
 */
function ExpiringLink({ soon }: { soon: DashboardResponse['expiringSoon'] }) {
  const money = useMoney();
  const lots = `${formatCount(soon.count)} ${soon.count === 1 ? 'lot' : 'lots'}`;
  const urgent = soon.count > 0;
  return (
    <Link
      to={EXPIRING_PATH}
      className={`flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4 shadow-sm hover:bg-slate-50 sm:p-5 ${urgent ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`}
    >
      <span>
        <span className="block text-sm font-medium text-slate-600">Expiring soon</span>
        <span className={`text-2xl font-bold tabular-nums ${urgent ? 'text-red-800' : 'text-slate-900'}`}>
          {lots}
        </span>{' '}
        <span className="text-sm text-slate-700">
          <span className="tabular-nums">{money(soon.value)}</span> at cost
        </span>
        <span className="block text-xs text-slate-500">
          within {EXPIRING_DAYS} days, expired ones included
        </span>
      </span>
      <span className="text-sm font-medium text-indigo-700" aria-hidden="true">
        Expiring lots →
      </span>
    </Link>
  );
}

/** What a location holds (DESIGN §17), at cost: shown when the dashboard is of one location. */
function StockValueStrip({
  where,
  held,
}: {
  where: string;
  held: NonNullable<DashboardResponse['stockValue']>;
}) {
  const money = useMoney();
  return (
    <section
      aria-label={`Stock value at ${where}`}
      className="mb-4 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm shadow-sm sm:px-5"
    >
      <p>
        <span className="font-medium text-slate-600">Stock value at {where}: </span>
        <span className="font-semibold tabular-nums">{money(held.value)}</span>{' '}
        <span className="text-slate-600">
          at cost, {formatCount(held.units)} {held.units === 1 ? 'unit' : 'units'} of{' '}
          {formatCount(held.products)} {held.products === 1 ? 'product' : 'products'}
        </span>
      </p>
    </section>
  );
}

/**
 * Admin: the store's figures (all time and today's) and the stock that needs attention; with a
 * location chosen (kept in the address, `?location=`), that location's: its sales, its stock, its
 * low and out of stock by the reorder point in force there, and what it holds at cost.
 */
export function AdminDashboardPage() {
  const money = useMoney();
  const { params, setOption } = useListAddress<'location'>();
  const location = params.get('location') ?? '';
  const dashboard = useQuery({
    queryKey: [...queryKeys.dashboard, location],
    queryFn: ({ signal }) =>
      api(withQuery('/dashboard', { location }), { schema: DashboardResponse, signal }),
  });

  return (
    <>
      <PageHeader title="Dashboard" />
      <div className="mb-4">
        <LocationPicker value={location} onChange={(value) => setOption('location', value)} />
      </div>
      <LoadState query={dashboard} what="the dashboard">
        {(figures) => (
          <>
            {figures.location && figures.stockValue ? (
              <StockValueStrip where={figures.location.name} held={figures.stockValue} />
            ) : null}
            <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
              <Tile
                label="Total Products"
                value={formatCount(figures.totalProducts)}
                accent="text-slate-900"
              />
              <Tile label="Total Stock" value={formatCount(figures.totalStock)} accent="text-slate-900" />
              <Tile
                label="Order Today"
                value={formatCount(figures.ordersToday)}
                accent="text-indigo-700"
                caption="sales since midnight"
              />
              <Tile
                label="Revenue"
                value={money(figures.revenue)}
                accent="text-green-700"
                caption="all time"
              />
            </dl>
            <TodayStrip today={figures.today} />
            {/* What needs doing: side by side on a wide screen. */}
            <div className="mt-4 grid gap-4 xl:grid-cols-2">
              <ReorderLink count={figures.toReorder} />
              <ExpiringLink soon={figures.expiringSoon} />
            </div>
            <div className="mt-6 grid gap-4 lg:grid-cols-3">
              <Card title="Out of Stock Products">
                {figures.outOfStock.length === 0 ? (
                  <Empty>No products out of stock.</Empty>
                ) : (
                  <ul className="max-h-96 divide-y divide-slate-100 overflow-y-auto pr-1">
                    {figures.outOfStock.map((product) => (
                      <li key={product._id} className="flex justify-between gap-3 py-2 text-sm">
                        <span className="font-medium text-red-700">{product.name}</span>
                        <span className="max-w-[45%] shrink-0 text-right text-slate-500 [overflow-wrap:anywhere]">
                          {product.category.name}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
              <Card title="Highest Sale Product" caption="all time">
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
                        <span className="max-w-[45%] shrink-0 text-right text-slate-500 [overflow-wrap:anywhere]">
                          {product.category.name}
                        </span>
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
