import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Movement, MovementKind } from '../../../shared/stock';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Loading } from '../../components/spinner';
import { StockBadge } from '../../components/stock-badge';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { serverPage } from '../../lib/paging';
import { useDocumentTitle } from '../../lib/use-document-title';
import { MOVEMENTS_PAGE_SIZE, useMovements, useProduct } from './stock-api';
import { AdjustDialog, CountDialog, signed } from './stock-dialogs';

const KIND_LABEL: Record<MovementKind, string> = {
  initial: 'Opening stock',
  sale: 'Sale',
  return: 'Return',
  receipt: 'Receipt',
  adjustment: 'Adjustment',
  count: 'Count',
};

/** A product's stock and every movement that explains it (DESIGN §8), with Adjust and Count. */
export function StockPage() {
  const { id = '' } = useParams();
  const product = useProduct(id);
  const [page, setPage] = useState(1);
  const movements = useMovements(id, page);
  const [dialog, setDialog] = useState<'adjust' | 'count' | null>(null);
  const current = product.data?.product;
  useDocumentTitle(current ? `Stock: ${current.name}` : 'Stock');

  const list = serverPage(
    movements.data ? { ...movements.data, rows: movements.data.movements } : undefined,
    { page, pageSize: MOVEMENTS_PAGE_SIZE },
  );

  return (
    <>
      <PageHeader title={current ? `Stock: ${current.name}` : 'Stock'}>
        <Link to="/admin-dashboard/products" className={buttonClass('secondary')}>
          Back to Products
        </Link>
      </PageHeader>
      {product.isPending ? (
        <Loading label="Loading the product..." />
      ) : product.isError ? (
        <p role="alert" className="rounded-md bg-red-50 p-4 text-sm text-red-800">
          {errorMessage(product.error)}
        </p>
      ) : current ? (
        <>
          <section
            aria-label="Current stock"
            className="mb-6 flex flex-wrap items-center gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
          >
            <p className="text-sm text-slate-600">
              In stock:{' '}
              <span className="align-middle">
                <StockBadge stock={current.stock} reorderPoint={current.reorderPoint} />
              </span>
            </p>
            <p className="text-sm text-slate-500">Low at {current.reorderPoint} or fewer</p>
            <div className="flex gap-2 sm:ml-auto">
              <button type="button" className={buttonClass('primary')} onClick={() => setDialog('adjust')}>
                Adjust
              </button>
              <button type="button" className={buttonClass('secondary')} onClick={() => setDialog('count')}>
                Count
              </button>
            </div>
          </section>
          <Table caption={`Stock movements of ${current.name}, newest first`} busy={movements.isFetching}>
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Kind</Th>
                <Th className="text-right">Change</Th>
                <Th className="text-right">Stock after</Th>
                <Th>Reason</Th>
                <Th>Note</Th>
                <Th>Who</Th>
                <Th>Order</Th>
              </tr>
            </thead>
            <tbody>
              {movements.isPending ? (
                <TableMessage colSpan={8}>Loading movements...</TableMessage>
              ) : movements.isError ? (
                <TableMessage colSpan={8}>
                  <span role="alert">{errorMessage(movements.error)}</span>
                </TableMessage>
              ) : list.rows.length === 0 ? (
                <TableMessage colSpan={8}>No movements yet.</TableMessage>
              ) : (
                list.rows.map((movement) => <MovementRow key={movement._id} movement={movement} />)
              )}
            </tbody>
          </Table>
          <Pager page={list} label="Stock movements" onPage={setPage} />
          {dialog === 'adjust' ? <AdjustDialog product={current} onClose={() => setDialog(null)} /> : null}
          {dialog === 'count' ? <CountDialog product={current} onClose={() => setDialog(null)} /> : null}
        </>
      ) : null}
    </>
  );
}

function MovementRow({ movement }: { movement: Movement }) {
  return (
    <tr>
      <Td className="whitespace-nowrap">{formatDate(movement.at)}</Td>
      <Td>{KIND_LABEL[movement.kind]}</Td>
      <Td
        className={`text-right font-medium tabular-nums ${movement.quantity < 0 ? 'text-red-700' : movement.quantity > 0 ? 'text-emerald-700' : ''}`}
      >
        {signed(movement.quantity)}
      </Td>
      <Td className="text-right tabular-nums">{movement.stockAfter}</Td>
      <Td>{movement.reason ?? ''}</Td>
      <Td className="max-w-64 truncate">{movement.note}</Td>
      <Td>{movement.user?.name ?? 'System'}</Td>
      <Td>
        {movement.order ? (
          <span title={`Order ${movement.order._id}`} className="font-mono text-xs">
            {movement.order._id.slice(0, 8)}
          </span>
        ) : (
          ''
        )}
      </Td>
    </tr>
  );
}
