import { useQuery } from '@tanstack/react-query';
import type { LocationStockLine } from '../../../shared/locations';
import type { Product } from '../../../shared/products';
import { LoadState } from '../../components/load-state';
import { Table, Td, Th } from '../../components/table';
import { productLocationsQuery } from './stock-api';

/**
 * A product's stock by location (DESIGN §17): each location's units, its own reorder point (or
 * the product's), a lot-tracked product's lots there, and the units in transit, which belong to
 * no location.
 */
export function LocationsSection({ product }: { product: Product }) {
  const stock = useQuery(productLocationsQuery(product._id));
  const tracked = product.tracking === 'lot';
  return (
    <section aria-labelledby="locations-heading" className="mb-6 space-y-2">
      <div className="flex flex-wrap items-baseline gap-x-4">
        <h2 id="locations-heading" className="text-base font-semibold text-slate-900">
          Stock by location
        </h2>
        {stock.data ? (
          <p className="text-sm text-slate-600">
            In transit: <span className="font-semibold tabular-nums">{stock.data.inTransit}</span>
          </p>
        ) : null}
      </div>
      <Table caption={`Stock of ${product.name} by location`}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Location</Th>
            <Th className="text-right">In stock</Th>
            <Th className="text-right">Reorder at</Th>
            {tracked ? <Th>Lots there</Th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={stock}
            what="the stock by location"
            loading="Loading stock by location..."
            colSpan={tracked ? 4 : 3}
            isEmpty={(data) => data.locations.length === 0}
            empty="No locations."
          >
            {(data) =>
              data.locations.map((line) => (
                <LocationRow key={line.location._id} line={line} product={product} tracked={tracked} />
              ))
            }
          </LoadState>
        </tbody>
      </Table>
    </section>
  );
}

function LocationRow({
  line,
  product,
  tracked,
}: {
  line: LocationStockLine;
  product: Product;
  tracked: boolean;
}) {
  return (
    <tr className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:px-3 max-sm:py-3">
      <Td className="font-medium max-sm:p-0">{line.location.name}</Td>
      <Td className="text-right tabular-nums max-sm:p-0">
        {line.stock}
        <span className="sm:hidden"> in stock</span>
      </Td>
      <Td className="text-right tabular-nums max-sm:col-span-2 max-sm:p-0 max-sm:text-left max-sm:text-xs">
        <span className="sm:hidden">Reorder at </span>
        {line.reorderPoint ?? (
          <span className="text-slate-500" title="The product’s own">
            {product.reorderPoint}
            <span className="sr-only"> (the product’s)</span>
          </span>
        )}
      </Td>
      {tracked ? (
        <Td className="max-sm:col-span-2 max-sm:p-0 max-sm:text-xs">
          {line.lots && line.lots.length > 0
            ? line.lots.map((lot) => `${lot.number}: ${lot.quantity}`).join(', ')
            : 'None'}
        </Td>
      ) : null}
    </tr>
  );
}
