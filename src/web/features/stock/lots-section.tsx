import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Lot } from '../../../shared/lots';
import type { Product } from '../../../shared/products';
import { ExpiryBadge, expiryLabel } from '../../components/expiry-badge';
import { LoadState } from '../../components/load-state';
import { Table, Td, Th } from '../../components/table';
import { lotPath } from '../../lib/admin-paths';
import { localDay } from '../../lib/local-day';
import { lotsQuery } from './stock-api';

/**
 * A lot-tracked product's lots (DESIGN §15): number, expiry, units and how each stands today —
 * expired, expires soon (30 days) or OK, in colour and in words. Each number opens its recall trace.
 */
export function LotsSection({ product }: { product: Product }) {
  const lots = useQuery(lotsQuery(product._id));
  const today = localDay();
  return (
    <section aria-labelledby="lots-heading" className="mb-6 space-y-2">
      <h2 id="lots-heading" className="text-base font-semibold text-slate-900">
        Lots
      </h2>
      <Table caption={`Lots of ${product.name}`}>
        <thead>
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
            {(data) => data.lots.map((lot) => <LotRow key={lot._id} lot={lot} today={today} />)}
          </LoadState>
        </tbody>
      </Table>
    </section>
  );
}

function LotRow({ lot, today }: { lot: Lot; today: string }) {
  return (
    <tr className={lot.quantity === 0 ? 'text-slate-500' : undefined}>
      <Td>
        <Link
          to={lotPath(lot._id)}
          title={`Who got units of lot ${lot.number}`}
          className="font-medium text-indigo-700 hover:underline"
        >
          {lot.number}
        </Link>
      </Td>
      <Td className="whitespace-nowrap">
        {lot.expiresOn === null ? (
          expiryLabel(null)
        ) : (
          <time dateTime={lot.expiresOn}>{expiryLabel(lot.expiresOn)}</time>
        )}
      </Td>
      <Td className="text-right tabular-nums">{lot.quantity}</Td>
      <Td>
        <ExpiryBadge expiresOn={lot.expiresOn} today={today} />
      </Td>
    </tr>
  );
}
