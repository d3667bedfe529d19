import { useState } from 'react';
import type { Product } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { SearchField, SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { StockBadge } from '../../components/stock-badge';
import { Table, Td, Th } from '../../components/table';
import { formatMoney, shortId } from '../../lib/format';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useProductChoices } from '../../lib/product-choices';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { useCataloguePage } from './catalogue-api';
import { OrderModal } from './order-modal';

/** Employee, sales rep and medical rep: browse the products a page at a time and order them. */
export function CataloguePage() {
  const paging = usePagedList<'category'>();
  const categoryId = paging.params.get('category') ?? '';
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useCataloguePage({
    search: paging.search || undefined,
    category: categoryId || undefined,
    ...asked,
  });
  const choices = useProductChoices();
  const [ordering, setOrdering] = useState<Product | null>(null);

  const page = serverPage(list.data && { ...list.data, rows: list.data.products }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);
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
            onChange={(event) => paging.setFilter('category', event.target.value)}
          >
            <option value="">Select Category</option>
            {(choices.data?.categories ?? []).map((category) => (
              <option key={category._id} value={category._id}>
                {category.name}
              </option>
            ))}
          </SelectField>
        </div>
        <SearchField
          value={paging.text}
          onChange={paging.setText}
          placeholder="Search products..."
          maxLength={SEARCH_MAX_LENGTH}
        />
      </div>
      <Table caption="Products you can order" busy={list.isPlaceholderData}>
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
          <LoadState
            query={list}
            what="the products"
            colSpan={6}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty="No products found"
          >
            {() =>
              page.rows.map((product) => (
                <tr key={product._id} className="hover:bg-slate-50">
                  <Td className="font-mono text-xs text-slate-500">
                    <span title={product._id}>{shortId(product._id)}</span>
                  </Td>
                  <Td className="font-medium">{product.name}</Td>
                  <Td>{product.category.name}</Td>
                  <Td className="whitespace-nowrap tabular-nums">{formatMoney(product.price)}</Td>
                  <Td>
                    <StockBadge stock={product.stock} reorderPoint={product.reorderPoint} />
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
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Products" onPage={paging.setPage} />
      {ordering ? <OrderModal product={ordering} onClose={() => setOrdering(null)} /> : null}
    </>
  );
}
