import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { saleNumberLabel } from '../../../shared/sales';
import { MOVEMENT_KIND_LABEL, type Movement } from '../../../shared/stock';
import { buttonClass } from '../../components/button';
import { DownloadCsvButton } from '../../components/download-csv';
import { LoadState } from '../../components/load-state';
import { expiryLabel } from '../../components/lot-expiry';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { StockBadge } from '../../components/stock-badge';
import { Table, Td, Th } from '../../components/table';
import { lotTracePath, productsPath, purchaseOrderPath } from '../../lib/admin-paths';
import { salePath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { useListAddress } from '../../lib/list-address';
import { isPastEnd, serverPage } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { LocationsSection } from './locations-section';
import { LotsSection } from './lots-section';
import { MOVEMENTS_PAGE_SIZE, movementsQuery, productQuery } from './stock-api';
import { AdjustDialog, CountDialog, reasonLabel, signed } from './stock-dialogs';

const KIND_LABEL = MOVEMENT_KIND_LABEL;

/** A product's stock and every movement that explains it (DESIGN §8), with Adjust and Count. */
export function StockPage() {
  const { id = '' } = useParams();
  const { page: askedPage, setPage, params } = useListAddress();
  const asked = { page: askedPage, pageSize: MOVEMENTS_PAGE_SIZE };
  const product = useQuery(productQuery(id));
  const movements = useQuery(movementsQuery(id, asked.page));
  const [dialog, setDialog] = useState<'adjust' | 'count' | null>(null);
  const current = product.data?.product;

  const list = serverPage(movements.data && { ...movements.data, rows: movements.data.movements }, asked);
  usePageInRange(asked.page, list.pageCount, movements.isSuccess && !movements.isPlaceholderData, setPage);

  return (
    <>
      <PageHeader title={current ? `Stock: ${current.name}` : 'Stock'}>
        <DownloadCsvButton
          path={`/products/${encodeURIComponent(id)}/movements`}
          filename="stock-movements.csv"
        />
        {/* Back to the list as it was left: its search, sort and page came along (?list=). */}
        <Link to={productsPath(params.get('list'))} className={buttonClass('secondary')}>
          Back to Products
        </Link>
      </PageHeader>
      <LoadState
        query={product}
        what="the product"
        loading="Loading the product..."
        // The movements failed with it (they are asked at the same time): one press loads both.
        retry={() => {
          void product.refetch();
          if (movements.isError) void movements.refetch();
        }}
      >
        {({ product: current }) => {
          // A lot column where lots are (DESIGN §15); an untracked product's table is as it was.
          const showLots = current.tracking === 'lot' || list.rows.some((movement) => movement.lot);
          const columns = showLots ? 10 : 9;
          return (
            <>
              <section
                aria-label="Current stock"
                className="mb-6 flex flex-wrap items-center gap-x-4 gap-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
              >
                <p className="flex items-center gap-2 text-sm text-slate-600">
                  In stock: <StockBadge stock={current.stock} reorderPoint={current.reorderPoint} />
                </p>
                <p className="text-sm text-slate-500">Low at {current.reorderPoint} or fewer</p>
                <div className="flex gap-2 sm:ml-auto">
                  <button
                    type="button"
                    className={buttonClass('primary')}
                    onClick={() => setDialog('adjust')}
                  >
                    Adjust
                  </button>
                  <button
                    type="button"
                    className={buttonClass('secondary')}
                    onClick={() => setDialog('count')}
                  >
                    Count
                  </button>
                </div>
              </section>
              <LocationsSection product={current} />
              {current.tracking === 'lot' ? <LotsSection product={current} /> : null}
              <Table
                caption={`Stock movements of ${current.name}, newest first`}
                busy={movements.isPlaceholderData}
              >
                <thead className="max-sm:sr-only">
                  <tr>
                    <Th>Date</Th>
                    <Th>Kind</Th>
                    <Th className="text-right">Change</Th>
                    <Th className="text-right">Stock after</Th>
                    <Th>Location</Th>
                    {showLots ? <Th>Lot</Th> : null}
                    {/* Who and Order before the free text, which wraps: on a laptop they were past the edge. */}
                    <Th>Who</Th>
                    <Th>Order</Th>
                    <Th>Reason</Th>
                    <Th>Note</Th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  <LoadState
                    query={movements}
                    what="the movements"
                    loading="Loading movements..."
                    colSpan={columns}
                    waiting={isPastEnd(list)}
                    isEmpty={() => list.total === 0}
                    empty="No movements yet."
                  >
                    {() =>
                      list.rows.map((movement) => (
                        <MovementRow key={movement._id} movement={movement} showLot={showLots} />
                      ))
                    }
                  </LoadState>
                </tbody>
              </Table>
              <Pager page={list} label="Stock movements" onPage={setPage} />
              {dialog === 'adjust' ? (
                <AdjustDialog product={current} onClose={() => setDialog(null)} />
              ) : null}
              {dialog === 'count' ? <CountDialog product={current} onClose={() => setDialog(null)} /> : null}
            </>
          );
        }}
      </LoadState>
    </>
  );
}

/**
 * On phones a row is a small card (kind and change, date and stock after, reason and note, who
 * and order) instead of eight columns to scroll sideways; the cells stay cells of the table.
 */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

// Colours sit on inner elements: a cell's own text colour would win over a class added beside it.
function changeTone(quantity: number): string {
  if (quantity < 0) return 'text-red-700';
  return quantity > 0 ? 'text-emerald-700' : 'text-slate-600';
}

function MovementRow({ movement, showLot }: { movement: Movement; showLot: boolean }) {
  const reason = movement.reason ? reasonLabel(movement.reason) : '';
  return (
    <tr className={`align-top hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td
        className={`tabular-nums max-sm:col-start-1 max-sm:row-start-2 max-sm:text-xs xl:whitespace-nowrap ${STACKED_CELL}`}
      >
        <time dateTime={movement.at} className="text-slate-600">
          {formatDateTime(movement.at)}
        </time>
      </Td>
      <Td
        className={`font-medium max-sm:col-start-1 max-sm:row-start-1 sm:whitespace-nowrap sm:font-normal ${STACKED_CELL}`}
      >
        {KIND_LABEL[movement.kind]}
      </Td>
      <Td
        className={`text-right font-semibold tabular-nums max-sm:col-start-2 max-sm:row-start-1 ${STACKED_CELL}`}
      >
        <span className={changeTone(movement.quantity)}>{signed(movement.quantity)}</span>
      </Td>
      <Td
        className={`text-right tabular-nums max-sm:col-start-2 max-sm:row-start-2 max-sm:text-xs ${STACKED_CELL}`}
      >
        <span className="max-sm:text-slate-600">
          <span className="sm:hidden">Stock after </span>
          {movement.stockAfter}
        </span>
      </Td>
      <Td className={`max-sm:col-span-2 max-sm:text-xs sm:whitespace-nowrap ${STACKED_CELL}`}>
        <span className="sm:hidden">At </span>
        {movement.location.name}
        {movement.transfer ? (
          <span className="block text-xs text-slate-500 max-sm:inline max-sm:before:content-['_·_']">
            {movement.transfer.number}
          </span>
        ) : null}
      </Td>
      {showLot ? (
        <Td
          className={`max-sm:col-span-2 max-sm:text-xs max-sm:empty:hidden sm:whitespace-nowrap ${STACKED_CELL}`}
        >
          {movement.lot ? <MovementLot lot={movement.lot} /> : null}
        </Td>
      ) : null}
      <Td className={`max-sm:col-start-1 max-sm:text-xs sm:whitespace-nowrap ${STACKED_CELL}`}>
        {movement.user?.name ?? 'System'}
      </Td>
      <Td className={`max-sm:col-start-2 max-sm:text-right max-sm:text-xs ${STACKED_CELL}`}>
        <MovementSource movement={movement} />
      </Td>
      <Td className={`max-sm:col-span-2 max-sm:empty:hidden ${STACKED_CELL}`}>{reason}</Td>
      <Td className={`break-words sm:max-w-72 max-sm:col-span-2 max-sm:empty:hidden ${STACKED_CELL}`}>
        {movement.note}
      </Td>
    </tr>
  );
}

/** The lot a movement's units came from or went to, linked to its recall trace, with its expiry. */
function MovementLot({ lot }: { lot: NonNullable<Movement['lot']> }) {
  return (
    <>
      <span className="sm:hidden">Lot </span>
      <Link to={lotTracePath(lot._id)} className="text-indigo-700 hover:underline">
        {lot.number}
      </Link>
      <span className="block text-xs text-slate-500 max-sm:inline max-sm:before:content-['_·_']">
        {lot.expiresOn === null ? expiryLabel(null) : `Expires ${expiryLabel(lot.expiresOn)}`}
      </span>
    </>
  );
}

/** The sale (its receipt), order or purchase order a movement belongs to. */
function MovementSource({ movement }: { movement: Movement }) {
  if (movement.purchaseOrder)
    return (
      <Link
        to={purchaseOrderPath(movement.purchaseOrder._id)}
        className="whitespace-nowrap text-indigo-700 hover:underline"
      >
        {movement.purchaseOrder.number}
      </Link>
    );
  if (!movement.order) return null;
  const { sale } = movement.order;
  if (sale)
    return (
      <Link to={salePath('admin', sale._id)} className="whitespace-nowrap text-indigo-700 hover:underline">
        {saleNumberLabel(sale.number)}
      </Link>
    );
  return (
    <span title={`Order ${movement.order._id}`} className="whitespace-nowrap">
      Order <span className="font-mono text-xs">{movement.order._id.slice(0, 8)}</span>
    </span>
  );
}
