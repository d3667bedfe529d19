import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Product, ProductListResponse } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { SearchField, SelectField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { StockBadge } from '../../components/stock-badge';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { api } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import { pageOf } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';
import { OrderModal } from './order-modal';
import { filterCatalogue } from './order-rules';

/** Employee, sales rep and medical rep: browse products and order them. */
export function CataloguePage() {
  const list = useQuery({
    queryKey: queryKeys.products,
    queryFn: ({ signal }) => api('/products', { schema: ProductListResponse, signal }),
  });
  const [categoryId, setCategoryId] = useState('');
  const [query, setQuery] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [ordering, setOrdering] = useState<Product | null>(null);

  const products = filterCatalogue(list.data?.products ?? [], categoryId, query);
  const page = pageOf(products, pageNumber);
  // Disabled while the list first loads; not during the refresh after an order, so focus can
  // return to the button that opened the modal.
  const busy = list.isPending;

  return (
    <>
      <PageHeader title="Products" />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="w-full sm:w-56">
          <SelectField
            label="Category"
            value={categoryId}
            onChange={(event) => {
              setCategoryId(event.target.value);
              setPageNumber(1);
            }}
          >
            <option value="">Select Category</option>
            {(list.data?.categories ?? []).map((category) => (
              <option key={category._id} value={category._id}>
                {category.name}
              </option>
            ))}
          </SelectField>
        </div>
        <SearchField
          value={query}
          onChange={(text) => {
            setQuery(text);
            setPageNumber(1);
          }}
          placeholder="Search products..."
        />
      </div>
      <Table caption="Products you can order">
        <thead>
          <tr>
            <Th className="w-16">ID</Th>
            <Th>Name</Th>
            <Th>Category</Th>
            <Th>Price</Th>
            <Th>Stock</Th>
            <Th stickyEnd>Action</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.isPending ? (
            <TableMessage colSpan={6}>Loading...</TableMessage>
          ) : page.total === 0 ? (
            <TableMessage colSpan={6}>No products found</TableMessage>
          ) : (
            page.rows.map((product, index) => (
              <tr key={product._id} className="hover:bg-slate-50">
                <Td className="tabular-nums text-slate-500">{page.offset + index + 1}</Td>
                <Td className="font-medium">{product.name}</Td>
                <Td>{product.category.name}</Td>
                <Td className="whitespace-nowrap tabular-nums">{formatMoney(product.price)}</Td>
                <Td>
                  <StockBadge stock={product.stock} />
                </Td>
                <Td stickyEnd>
                  <button
                    type="button"
                    className={buttonClass('primary', 'sm')}
                    disabled={busy || product.stock <= 0}
                    onClick={() => setOrdering(product)}
                    aria-label={`Order ${product.name}`}
                  >
                    Order
                  </button>
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Products" onPage={setPageNumber} />
      {ordering ? <OrderModal product={ordering} onClose={() => setOrdering(null)} /> : null}
    </>
  );
}
