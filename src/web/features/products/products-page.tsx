import { useState } from 'react';
import type { Product } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { StockBadge } from '../../components/stock-badge';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { formatMoney } from '../../lib/format';
import { notify } from '../../lib/notify';
import { pageOf } from '../../lib/paging';
import { filterByName } from '../../lib/search';
import { ProductFormModal } from './product-form-modal';
import { useDeleteProduct, useProductList } from './products-api';

type Editing = { product: Product | null } | null;

/** Admin: every product, with add, edit and delete. */
export function ProductsPage() {
  const list = useProductList();
  const remove = useDeleteProduct();
  const [query, setQuery] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);

  const products = filterByName(list.data?.products ?? [], query);
  const page = pageOf(products, pageNumber);

  return (
    <>
      <PageHeader title="Products">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => setEditing({ product: null })}
          disabled={!list.data}
        >
          Add Product
        </button>
      </PageHeader>
      <div className="mb-4">
        <SearchField
          value={query}
          onChange={(text) => {
            setQuery(text);
            setPageNumber(1);
          }}
          placeholder="Search products by name..."
        />
      </div>
      <Table caption="Products">
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
          {list.isPending ? (
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
                  <StockBadge stock={product.stock} />
                </Td>
                <Td stickyEnd>
                  <div className="flex gap-2">
                    <button
                      type="button"
                      className={buttonClass('secondary', 'sm')}
                      onClick={() => setEditing({ product })}
                      aria-label={`Edit ${product.name}`}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={buttonClass('danger', 'sm')}
                      onClick={() => setDeleting(product)}
                      aria-label={`Delete ${product.name}`}
                    >
                      Delete
                    </button>
                  </div>
                </Td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Products" onPage={setPageNumber} />

      {editing && list.data ? (
        <ProductFormModal
          product={editing.product}
          categories={list.data.categories}
          suppliers={list.data.suppliers}
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
