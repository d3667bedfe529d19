import type { Product } from '../../../shared/products';
import { ProductPicker as SearchProducts } from '../../components/product-picker';

/** "Add a product" to a transfer: each match with its stock, and whether it is tracked by lot. */
export function ProductPicker({
  onPick,
  isAdded,
}: {
  onPick: (product: Product) => void;
  isAdded: (productId: string) => boolean;
}) {
  return (
    <SearchProducts
      onPick={onPick}
      isAdded={isAdded}
      addedNote="on this transfer"
      detail={(product) => (
        <>
          stock {product.stock}
          {product.tracking === 'lot' ? ' · tracked by lot' : ''}
        </>
      )}
    />
  );
}
