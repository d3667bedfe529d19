import { useState } from 'react';
import { Link } from 'react-router';
import { PRODUCT_SORTS, type Product } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DownloadCsvButton } from '../../components/download-csv';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { RowActions } from '../../components/row-actions';
import { StockBadge } from '../../components/stock-badge';
import { SortableTh, Table, Td, Th } from '../../components/table';
import { stockPath } from '../../lib/admin-paths';
import { formatMoney } from '../../lib/format';
import { oneOf } from '../../lib/list-address';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage, withQuery } from '../../lib/paging';
import { useProductChoices } from '../../lib/product-choices';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { ProductFormModal } from './product-form-modal';
import { useDeleteProduct, useProductPage } from './products-api';

type Editing = { product: Product | null } | null;

/** The product's SKU and barcode, small under its name, when it has them. */
function ProductCodes({ product }: { product: Product }) {
  if (!product.sku && !product.barcode) return null;
  // The spaces keep the words apart when the cell is read out or copied; the flex gap draws them.
  return (
    <>
      {' '}
      <span className="mt-0.5 flex flex-wrap gap-x-3 text-xs font-normal text-slate-500">
        {product.sku ? <span className="whitespace-nowrap">SKU {product.sku}</span> : null}
        {product.sku && product.barcode ? ' ' : null}
        {product.barcode ? <span className="whitespace-nowrap">Barcode {product.barcode}</span> : null}
      </span>
    </>
  );
}

/** Admin: every product, a page at a time, with add, edit and delete. */
export function ProductsPage() {
  const paging = usePagedList<'sort' | 'cols'>();
  // By name unless the address says otherwise (?sort=-price); the optional "Reorder at" column
  // is kept there too (?cols=reorder).
  const sort = oneOf(PRODUCT_SORTS, paging.params.get('sort')) ?? 'name';
  const showReorder = paging.params.get('cols') === 'reorder';
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useProductPage({
    search: paging.search || undefined,
    sort: sort === 'name' ? undefined : sort,
    ...asked,
  });
  const choices = useProductChoices();
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const columns = showReorder ? 7 : 6;
  const sortBy = (to: string) => paging.setFilter('sort', to === 'name' ? '' : to);

  const page = serverPage(list.data && { ...list.data, rows: list.data.products }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Products">
        <DownloadCsvButton
          path={withQuery('/products', { search: paging.search || undefined })}
          filename="products.csv"
        />
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => setEditing({ product: null })}
          disabled={!choices.data}
        >
          Add Product
        </button>
      </PageHeader>
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="sm:flex-1">
          <SearchField
            value={paging.text}
            onChange={paging.setText}
            placeholder="Search products by name..."
            maxLength={SEARCH_MAX_LENGTH}
          />
        </div>
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={showReorder}
            onChange={(event) => paging.setOption('cols', event.target.checked ? 'reorder' : '')}
          />
          Show reorder points
        </label>
      </div>
      <Table caption="Products" busy={list.isPlaceholderData}>
        <thead>
          <tr>
            <SortableTh field="name" sort={sort} onSort={sortBy}>
              Name
            </SortableTh>
            <Th>Category</Th>
            <Th>Supplier</Th>
            <SortableTh field="price" sort={sort} onSort={sortBy}>
              Price
            </SortableTh>
            <SortableTh field="stock" sort={sort} onSort={sortBy}>
              Stock
            </SortableTh>
            {showReorder ? <Th>Reorder at</Th> : null}
            <Th stickyEnd>Action</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the products"
            colSpan={columns}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty="No products found."
          >
            {() =>
              page.rows.map((product) => (
                <tr key={product._id} className="hover:bg-slate-50">
                  <Td className="font-medium">
                    {product.name}
                    <ProductCodes product={product} />
                  </Td>
                  <Td>{product.category.name}</Td>
                  <Td>{product.supplier.name}</Td>
                  <Td className="whitespace-nowrap tabular-nums">{formatMoney(product.price)}</Td>
                  <Td>
                    <StockBadge stock={product.stock} reorderPoint={product.reorderPoint} />
                  </Td>
                  {showReorder ? (
                    <Td className="tabular-nums">
                      {product.reorderPointFromStore ? (
                        <span className="text-slate-500" title="The store's default">
                          {product.reorderPoint}
                          <span className="sr-only"> (store default)</span>
                        </span>
                      ) : (
                        product.reorderPoint
                      )}
                    </Td>
                  ) : null}
                  <RowActions
                    name={product.name}
                    onEdit={() => setEditing({ product })}
                    onDelete={() => setDeleting(product)}
                  >
                    <Link
                      to={stockPath(product._id, paging.view)}
                      className={buttonClass('secondary', 'sm')}
                      aria-label={`Stock of ${product.name}`}
                    >
                      Stock
                    </Link>
                  </RowActions>
                </tr>
              ))
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Products" onPage={paging.setPage} />

      {editing && choices.data ? (
        <ProductFormModal
          product={editing.product}
          categories={choices.data.categories}
          suppliers={choices.data.suppliers}
          onClose={() => setEditing(null)}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete product?"
          message={`“${deleting.name}” will be removed from the catalogue. Past orders keep their details.`}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => notify.success('Product deleted.'),
              onSettled: () => setDeleting(null),
            })
          }
        />
      ) : null}
    </>
  );
}
