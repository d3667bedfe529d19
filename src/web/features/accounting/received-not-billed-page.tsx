import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ReceivedNotBilledResponse } from '../../../shared/bills';
import { buttonClass } from '../../components/button';
import { SelectField } from '../../components/form-field';
import { ReportSection } from '../../components/report-section';
import { Table, Td, Th } from '../../components/table';
import { newBillPath, purchaseOrderPath } from '../../lib/admin-paths';
import { useListAddress } from '../../lib/list-address';
import { useMoney } from '../../lib/store-settings';
import { accountingPaths, receivedNotBilledQuery, suppliersQuery } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { NUMBER } from './accounting-parts';

type Line = ReceivedNotBilledResponse['lines'][number];

/** The lines by purchase order, in the order the answer gives them. */
export function byOrder(
  lines: readonly Line[],
): { order: Line['purchaseOrder']; supplier: Line['supplier']; lines: Line[] }[] {
  const groups = new Map<
    string,
    { order: Line['purchaseOrder']; supplier: Line['supplier']; lines: Line[] }
  >();
  for (const line of lines) {
    const group = groups.get(line.purchaseOrder._id);
    if (group) group.lines.push(line);
    else
      groups.set(line.purchaseOrder._id, {
        order: line.purchaseOrder,
        supplier: line.supplier,
        lines: [line],
      });
  }
  return [...groups.values()];
}

const COLUMNS = 6;

function Lines({ answer }: { answer: ReceivedNotBilledResponse }) {
  const money = useMoney();
  return (
    <>
      <Table caption="Goods received and not billed, by purchase order">
        <thead>
          <tr>
            <Th>Product</Th>
            <Th className="text-right">Received</Th>
            <Th className="text-right">Billed</Th>
            <Th className="text-right">Not billed</Th>
            <Th className="text-right">Unit cost</Th>
            <Th className="text-right">Value</Th>
          </tr>
        </thead>
        {byOrder(answer.lines).map((group) => (
          <tbody key={group.order._id} className="divide-y divide-slate-100 border-t border-slate-200">
            <tr className="bg-slate-50/70">
              <th scope="rowgroup" colSpan={COLUMNS - 1} className="px-3 py-2 text-left sm:px-4">
                <Link
                  to={purchaseOrderPath(group.order._id)}
                  className="font-semibold whitespace-nowrap text-indigo-700 hover:underline"
                >
                  {group.order.number}
                </Link>{' '}
                <span className="font-normal text-slate-700">· {group.supplier.name}</span>
              </th>
              <td className="px-3 py-2 text-right sm:px-4">
                <Link
                  to={newBillPath(group.order._id)}
                  className={buttonClass('secondary', 'sm')}
                  aria-label={`Bill ${group.order.number}`}
                >
                  Bill this
                </Link>
              </td>
            </tr>
            {group.lines.map((line) => (
              <tr key={line.line} className="hover:bg-slate-50">
                <th
                  scope="row"
                  className="px-3 py-2.5 pl-6 text-left font-normal text-slate-900 sm:px-4 sm:pl-8"
                >
                  {line.product.name}
                </th>
                <Td className={NUMBER}>{line.received}</Td>
                <Td className={NUMBER}>{line.billed}</Td>
                <Td className={`${NUMBER} font-medium`}>{line.received - line.billed}</Td>
                <Td className={NUMBER}>{money(line.unitCost)}</Td>
                <Td className={`${NUMBER} font-medium`}>{money(line.value)}</Td>
              </tr>
            ))}
          </tbody>
        ))}
        <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-semibold">
          <tr>
            <th scope="row" colSpan={COLUMNS - 1} className="px-3 py-2.5 text-left sm:px-4">
              Total
            </th>
            <Td className={NUMBER}>{money(answer.total)}</Td>
          </tr>
        </tfoot>
      </Table>
      <p className="mt-3 text-sm text-slate-600">
        Units received at their purchase order’s cost and not yet on a posted bill: the balance of 2100 Goods
        received not billed.
      </p>
    </>
  );
}

/**
 * Admin: goods received and not billed (DESIGN §20), by purchase order, for every supplier or one:
 * each line's units received and billed and the value still to bill; each order's "Bill this"
 * opens a new bill filled from it; the total; as CSV.
 */
export function ReceivedNotBilledPage() {
  const address = useListAddress<'supplier'>();
  const supplier = address.params.get('supplier') || undefined;
  const query = useQuery(receivedNotBilledQuery(supplier));
  const suppliers = useQuery(suppliersQuery);
  const known = suppliers.data?.suppliers.some((one) => one._id === supplier);
  const name = suppliers.data?.suppliers.find((one) => one._id === supplier)?.name;
  return (
    <AccountingPage title="Received not billed" tab="received-not-billed">
      <search
        aria-label="Filter by supplier"
        className="mb-5 block rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
      >
        <div className="w-full sm:w-72">
          <SelectField
            label="Supplier"
            value={supplier ?? ''}
            onChange={(event) => address.setFilter('supplier', event.target.value)}
          >
            <option value="">Every supplier</option>
            {supplier && !known ? (
              <option value={supplier}>{suppliers.isPending ? 'Loading…' : 'Unknown supplier'}</option>
            ) : null}
            {suppliers.data?.suppliers.map((one) => (
              <option key={one._id} value={one._id}>
                {one.name}
              </option>
            ))}
          </SelectField>
        </div>
      </search>
      <ReportSection
        title="Received, not billed"
        covers={name ? `From ${name}` : supplier ? 'From one supplier' : 'Every supplier'}
        csv={
          query.data
            ? { path: accountingPaths.receivedNotBilled(supplier), filename: 'received-not-billed.csv' }
            : undefined
        }
        query={query}
        what="the goods received and not billed"
        isEmpty={(answer) => answer.lines.length === 0}
        empty="Every unit received is billed."
      >
        {(answer) => <Lines answer={answer} />}
      </ReportSection>
    </AccountingPage>
  );
}
