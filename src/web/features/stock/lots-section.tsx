import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Lot } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import { LoadState } from '../../components/load-state';
import { ExpiryBadge, expiryLabel } from '../../components/lot-expiry';
import { Table, Td, Th } from '../../components/table';
import { lotTracePath } from '../../lib/admin-paths';
import { lotsQuery } from './stock-api';

/**
 * A lot-tracked product's lots (DESIGN §15): number, expiry, units and how each stands on the
 * store's today (the answer's, not the device's) —
 * expired, expires soon (30 days) or OK, in colour and in words. Each number opens its recall trace.
 */
export function LotsSection({ product }: { product: Product }) {
  const lots = useQuery(lotsQuery(product._id));
  return (
    <section aria-labelledby="lots-heading" className="mb-6 space-y-2">
      <h2 id="lots-heading" className="text-base font-semibold text-slate-900">
        Lots
      </h2>
      <Table caption={`Lots of ${product.name}`}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Lot</Th>
            <Th>Expires</Th>
            <Th className="text-right">Units</Th>
            <Th>State</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={lots}
            what="the lots"
            loading="Loading lots..."
            colSpan={4}
            isEmpty={(data) => data.lots.length === 0}
            empty="No lots yet."
          >
            {(data) => data.lots.map((lot) => <LotRow key={lot._id} lot={lot} today={data.today} />)}
          </LoadState>
        </tbody>
      </Table>
    </section>
  );
}

/** On phones a lot is a small card (number and units, expiry and state), not four columns to scroll. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';

function LotRow({ lot, today }: { lot: Lot; today: string }) {
  return (
    <tr className={STACKED_ROW}>
      <Td className="whitespace-nowrap max-sm:col-start-1 max-sm:row-start-1 max-sm:p-0">
        <Link
          to={lotTracePath(lot._id)}
          title={`Who got units of lot ${lot.number}`}
          className="font-medium text-indigo-700 hover:underline"
        >
          {lot.number}
        </Link>
      </Td>
      <Td className="whitespace-nowrap max-sm:col-start-1 max-sm:row-start-2 max-sm:p-0 max-sm:text-xs">
        {lot.expiresOn === null ? (
          expiryLabel(null)
        ) : (
          <time dateTime={lot.expiresOn}>{expiryLabel(lot.expiresOn)}</time>
        )}
      </Td>
      <Td className="text-right tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
        {lot.quantity}
        <span className="sm:hidden"> {lot.quantity === 1 ? 'unit' : 'units'}</span>
      </Td>
      <Td className="max-sm:col-start-2 max-sm:row-start-2 max-sm:p-0 max-sm:text-right">
        <ExpiryBadge expiresOn={lot.expiresOn} today={today} />
      </Td>
    </tr>
  );
}
