import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { type Product, ProductListResponse } from '../../shared/products';
import { api, errorMessage } from '../lib/api';
import { withQuery } from '../lib/paging';
import { queryKeys } from '../lib/query-keys';
import { SEARCH_DELAY_MS, useDebouncedValue } from '../lib/use-paged-list';
import { SearchCombobox } from './search-combobox';

/** Products offered at once by the picker's search. */
const PICKER_SIZE = 10;

/** The picker's search: the first products matching the text, as the products list finds them. */
const productSearchQuery = (search: string) => {
  const query = { search, page: 1, pageSize: PICKER_SIZE };
  return queryOptions({
    queryKey: queryKeys.productPage(query),
    queryFn: ({ signal }) => api(withQuery('/products', query), { schema: ProductListResponse, signal }),
    placeholderData: keepPreviousData,
  });
};

/**
 * "Add a product" to a purchase order or a transfer: the counter's search box over the products.
 * Arrow keys move through the matches, Enter picks, Escape closes; a click picks too. A product
 * already added says `addedNote` ("on this order"); `detail` is the line under each match.
 */
export function ProductPicker({
  onPick,
  isAdded,
  addedNote,
  detail,
}: {
  onPick: (product: Product) => void;
  isAdded: (productId: string) => boolean;
  addedNote: string;
  detail: (product: Product) => ReactNode;
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
                <span className="font-normal text-slate-500"> ({addedNote})</span>
              ) : null}
            </span>
            <span className="block text-xs text-slate-500">{detail(product)}</span>
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
