import { useState } from 'react';
import { Link } from 'react-router';
import type { Product } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { RowActions } from '../../components/row-actions';
import { StockBadge } from '../../components/stock-badge';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { stockPath } from '../../lib/admin-paths';
import { formatMoney } from '../../lib/format';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useProductChoices } from '../../lib/product-choices';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { ProductFormModal } from './product-form-modal';
import { useDeleteProduct, useProductPage } from './products-api';

type Editing = { product: Product | null } | null;

/** Admin: every product, a page at a time, with add, edit and delete. */
export function ProductsPage() {
  const paging = usePagedList();
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useProductPage({ search: paging.search || undefined, ...asked });
  const choices = useProductChoices();
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);

  const page = serverPage(list.data && { ...list.data, rows: list.data.products }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Products">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => setEditing({ product: null })}
          disabled={!choices.data}
        >
          Add Product
        </button>
      </PageHeader>
      <div className="mb-4">
        <SearchField
          value={paging.text}
          onChange={paging.setText}
          placeholder="Search products by name..."
          maxLength={SEARCH_MAX_LENGTH}
        />
      </div>
      <Table caption="Products" busy={list.isPlaceholderData}>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Category</Th>
            <Th>Supplier</Th>
            <Th>Price</Th>
            <Th>Stock</Th>
            <Th stickyEnd>Action</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.isPending || isPastEnd(page) ? (
            <TableMessage colSpan={6}>Loading...</TableMessage>
          ) : page.total === 0 ? (
            <TableMessage colSpan={6}>No products found.</TableMessage>
          ) : (
            page.rows.map((product) => (
              <tr key={product._id} className="hover:bg-slate-50">
                <Td className="font-medium">{product.name}</Td>
                <Td>{product.category.name}</Td>
                <Td>{product.supplier.name}</Td>
                <Td className="whitespace-nowrap tabular-nums">{formatMoney(product.price)}</Td>
                <Td>
                  <StockBadge stock={product.stock} reorderPoint={product.reorderPoint} />
                </Td>
                <RowActions
                  name={product.name}
                  onEdit={() => setEditing({ product })}
                  onDelete={() => setDeleting(product)}
                >
                  <Link
                    to={stockPath(product._id)}
                    className={buttonClass('secondary', 'sm')}
                    aria-label={`Stock of ${product.name}`}
                  >
                    Stock
                  </Link>
                </RowActions>
              </tr>
            ))
          )}
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
