import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { useStockCheck } from './stock-api';

/**
 * The ledger check: every product's stock against the sum of its movements. Named for what it
 * checks (the stock ledger, DESIGN §8), so it is not taken for a stocktake, which is Count.
 */
export function StockCheckPage() {
  const check = useStockCheck();
  const result = check.data;
  return (
    <>
      <PageHeader title="Ledger check" />
      <div className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <p className="text-sm text-slate-600">
          Compares every product's stock with the sum of its stock movements (opening stock, sales, returns,
          adjustments and counts). Nothing is counted or changed; to count a shelf, use Count on the product's
          stock page.
        </p>
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => check.mutate()}
          disabled={check.isPending}
        >
          {check.isPending ? 'Checking...' : 'Run check'}
        </button>
        {check.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(check.error)}
          </p>
        ) : null}
        {result ? (
          result.mismatches.length === 0 ? (
            <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm font-medium text-emerald-900">
              All {formatCount(result.checked)} products agree with their history.
            </p>
          ) : (
            <>
              <p role="status" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-900">
                {result.mismatches.length} of {formatCount(result.checked)} products disagree with their
                history.
              </p>
              <Table caption="Products whose stock differs from their movements">
                <thead>
                  <tr>
                    <Th>Product</Th>
                    <Th className="text-right">Stock</Th>
                    <Th className="text-right">Sum of movements</Th>
                  </tr>
                </thead>
                <tbody>
                  {result.mismatches.map((row) => (
                    <tr key={row.product._id}>
                      <Td>{row.product.name}</Td>
                      <Td className="text-right tabular-nums">{row.stock}</Td>
                      <Td className="text-right tabular-nums">{row.ledger}</Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </>
          )
        ) : null}
      </div>
    </>
  );
}
