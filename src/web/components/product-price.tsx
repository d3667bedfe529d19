import { taxRateLabel } from '../../shared/store';
import { useMoney, useStoreSettings } from '../lib/store-settings';

type Priced = { price: number; taxRate: { name: string; rate: number } | null };

/**
 * A product's price as the store writes its prices (with or without tax, DESIGN §12), and under
 * it, small, the tax rate in force: "+ Standard 8.875%" (added at the till) or "incl. Reduced 5%"
 * (in the price). No rate in force (a store without a default rate, a product without its own)
 * says nothing: such a store's prices read as they always did.
 */
export function ProductPrice({ product, strong = false }: { product: Priced; strong?: boolean }) {
  const money = useMoney();
  const includesTax = useStoreSettings().data?.store.pricesIncludeTax ?? false;
  const rate = product.taxRate;
  return (
    <>
      <span className={`tabular-nums ${strong ? 'font-semibold' : ''}`}>{money(product.price)}</span>
      {rate ? (
        <span className="block text-xs font-normal break-words text-slate-500">
          {` ${includesTax ? 'incl.' : '+'} ${taxRateLabel(rate)}`}
        </span>
      ) : null}
    </>
  );
}
