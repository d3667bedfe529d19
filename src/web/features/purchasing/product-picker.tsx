import type { Product } from '../../../shared/products';
import { ProductPicker as SearchProducts } from '../../components/product-picker';
import { useMoney } from '../../lib/store-settings';

/** "Add a product" to a purchase order: each match with its supplier, stock and cost. */
export function ProductPicker({
  onPick,
  isAdded,
}: {
  onPick: (product: Product) => void;
  isAdded: (productId: string) => boolean;
}) {
  const money = useMoney();
  return (
    <SearchProducts
      onPick={onPick}
      isAdded={isAdded}
      addedNote="on this order"
      detail={(product) => (
        <>
          {product.supplier.name} · stock {product.stock} · cost{' '}
          {product.cost == null ? 'unknown' : money(product.cost)}
        </>
      )}
    />
  );
}
