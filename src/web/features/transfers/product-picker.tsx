import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Product } from '../../../shared/products';
import { SearchCombobox } from '../../components/search-combobox';
import { errorMessage } from '../../lib/api';
import { SEARCH_DELAY_MS, useDebouncedValue } from '../../lib/use-paged-list';
import { productSearchQuery } from './transfers-api';

/**
 * "Add a product": the counter's search box over the products. Arrow keys move through the
 * matches, Enter picks, Escape closes; a click picks too.
 */
export function ProductPicker({
  onPick,
  isAdded,
}: {
  onPick: (product: Product) => void;
  isAdded: (productId: string) => boolean;
}) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const matches = useQuery({ ...productSearchQuery(search), enabled: search !== '' });
  const waiting = text.trim() !== search || (matches.isFetching && matches.isPlaceholderData);
  const products = text.trim() && matches.data && !waiting ? matches.data.products : [];

  function pick(product: Product) {
    onPick(product);
    setText('');
  }

  let status = '';
  if (text.trim()) {
    if (matches.isError && !waiting)
      status = `The products could not be loaded: ${errorMessage(matches.error)}`;
    else if (waiting || matches.isPending) status = 'Searching...';
    else if (products.length === 0) status = 'No products match.';
    else status = `${products.length} ${products.length === 1 ? 'product' : 'products'} found.`;
  }

  return (
    <div className="w-full sm:max-w-md">
      <SearchCombobox
        label="Add a product"
        placeholder="Type a product name..."
        listLabel="Matching products"
        text={text}
        onText={setText}
        matches={products}
        renderMatch={(product) => (
          <>
            <span className="block font-medium text-slate-900">
              {product.name}
              {isAdded(product._id) ? (
                <span className="font-normal text-slate-500"> (on this transfer)</span>
              ) : null}
            </span>
            <span className="block text-xs text-slate-500">
              stock {product.stock}
              {product.tracking === 'lot' ? ' · tracked by lot' : ''}
            </span>
          </>
        )}
        onPick={pick}
        onEnter={(highlighted) => highlighted && pick(highlighted)}
        status={status}
      />
      {status && products.length === 0 ? (
        <p aria-hidden="true" className="mt-1 text-sm text-slate-500">
          {status}
        </p>
      ) : null}
    </div>
  );
}
