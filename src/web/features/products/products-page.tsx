import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PRODUCT_SORTS, type Product } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DownloadCsvButton } from '../../components/download-csv';
import { SearchField, SelectField } from '../../components/form-field';
import { LoadFailed, LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { ProductPrice } from '../../components/product-price';
import { EditDeleteButtons, RowActions } from '../../components/row-actions';
import { StockBadge } from '../../components/stock-badge';
import {
  CARD_BUTTON,
  Card,
  CardActions,
  CardField,
  CardFields,
  CardList,
  SortableTh,
  Table,
  Td,
  Th,
  useCardLayout,
} from '../../components/table';
import { itemPath, PRODUCTS_IMPORT_PATH, stockPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
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

/** DESIGN §22: an inactive product's badge, and a variant's item (a link to its editor). */
function ProductTags({ product }: { product: Product }) {
  if (product.active && !product.item) return null;
  return (
    <>
      {' '}
      <span className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs font-normal text-slate-500">
        {product.active ? null : (
          <span className="rounded-full bg-slate-200 px-2 py-0.5 font-medium text-slate-700">Inactive</span>
        )}
        {product.active || !product.item ? null : ' '}
        {product.item ? (
          <span>
            Variant of{' '}
            <Link to={itemPath(product.item._id)} className="text-indigo-700 hover:underline">
              {product.item.name}
            </Link>
          </span>
        ) : null}
      </span>
    </>
  );
}

/** Which products the list shows by their Active (DESIGN §22); an admin sees all unless filtered. */
const ACTIVE_FILTERS = ['all', 'true', 'false'] as const;
const ACTIVE_LABEL: Record<(typeof ACTIVE_FILTERS)[number], string> = {
  all: 'All',
  true: 'Active',
  false: 'Inactive',
};

/** The reorder point, greyed and said to be the store's default when the product has none. */
function ReorderPoint({ product }: { product: Product }) {
  return product.reorderPointFromStore ? (
    <span className="text-slate-500" title="The store's default">
      {product.reorderPoint}
      <span className="sr-only"> (store default)</span>
    </span>
  ) : (
    product.reorderPoint
  );
}

/** The stock, and with a location picked (DESIGN §17) "stock here / total". */
function ProductStock({ product }: { product: Product }) {
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap">
      <StockBadge stock={product.stock} reorderPoint={product.reorderPoint} />
      {product.stockTotal === undefined ? null : (
        <span className="text-sm text-slate-500 tabular-nums">
          <span aria-hidden="true">/ </span>
          <span className="sr-only">here, of </span>
          {product.stockTotal}
          <span className="sr-only"> in all</span>
        </span>
      )}
    </span>
  );
}

/** The table's sorts, for phones, where the cards have no column headers to press. */
const SORT_LABEL: Record<(typeof PRODUCT_SORTS)[number], string> = {
  name: 'Name, A to Z',
  '-name': 'Name, Z to A',
  price: 'Price, lowest first',
  '-price': 'Price, highest first',
  stock: 'Stock, lowest first',
  '-stock': 'Stock, highest first',
};

/** Admin: every product, a page at a time, with add, edit and delete. */
export function ProductsPage() {
  const paging = usePagedList<'sort' | 'cols' | 'location' | 'active'>();
  const active = oneOf(ACTIVE_FILTERS, paging.params.get('active')) ?? 'all';
  // DESIGN §17: a location picked (?location=) shows each product's stock there beside its total.
  const location = paging.params.get('location') ?? '';
  // By name unless the address says otherwise (?sort=-price); the optional "Reorder at" column
  // is kept there too (?cols=reorder).
  const sort = oneOf(PRODUCT_SORTS, paging.params.get('sort')) ?? 'name';
  const showReorder = paging.params.get('cols') === 'reorder';
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useProductPage({
    search: paging.search || undefined,
    sort: sort === 'name' ? undefined : sort,
    location: location || undefined,
    active: active === 'all' ? undefined : active,
    ...asked,
  });
  const choices = useProductChoices();
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const columns = showReorder ? 7 : 6;
  const cards = useCardLayout();
  const choicesProblemId = useId();
  // Adding needs the categories and suppliers to choose from: while they cannot be loaded the
  // button says why beside it and offers to load them again.
  const choicesFailed = choices.isError && !choices.isFetching && !choices.data;
  const sortBy = (to: string) => paging.setFilter('sort', to === 'name' ? '' : to);

  const page = serverPage(list.data && { ...list.data, rows: list.data.products }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Products">
        <DownloadCsvButton
          path={withQuery('/products', {
            search: paging.search || undefined,
            location: location || undefined,
          })}
          filename="products.csv"
        />
        <Link to={PRODUCTS_IMPORT_PATH} className={buttonClass('secondary')}>
          Import
        </Link>
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => setEditing({ product: null })}
          disabled={!choices.data}
          aria-describedby={choicesFailed ? choicesProblemId : undefined}
        >
          Add Product
        </button>
      </PageHeader>
      {choicesFailed ? (
        <div id={choicesProblemId} className="mb-4">
          <LoadFailed
            message={`The categories and suppliers a new product needs could not be loaded: ${errorMessage(choices.error)}`}
            retry={() => void choices.refetch()}
          />
        </div>
      ) : null}
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="sm:flex-1">
          <SearchField
            value={paging.text}
            onChange={paging.setText}
            placeholder="Search products by name..."
            maxLength={SEARCH_MAX_LENGTH}
          />
        </div>
        <LocationPicker value={location} onChange={(to) => paging.setFilter('location', to)} />
        <div className="sm:w-40">
          <SelectField
            label="Show"
            value={active}
            onChange={(event) =>
              paging.setFilter('active', event.target.value === 'all' ? '' : event.target.value)
            }
          >
            {ACTIVE_FILTERS.map((value) => (
              <option key={value} value={value}>
                {ACTIVE_LABEL[value]}
              </option>
            ))}
          </SelectField>
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
        {cards ? (
          <SelectField label="Sort by" value={sort} onChange={(event) => sortBy(event.target.value)}>
            {PRODUCT_SORTS.map((value) => (
              <option key={value} value={value}>
                {SORT_LABEL[value]}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      {cards ? (
        <LoadState
          query={list}
          what="the products"
          waiting={isPastEnd(page)}
          isEmpty={() => page.total === 0}
          empty="No products found."
        >
          {() => (
            <CardList caption="Products" busy={list.isPlaceholderData}>
              {page.rows.map((product) => (
                <Card key={product._id}>
                  <h2 className="font-semibold break-words text-slate-900">{product.name}</h2>
                  <ProductCodes product={product} />
                  <ProductTags product={product} />
                  <CardFields>
                    <CardField label="Price">
                      <ProductPrice product={product} strong />
                    </CardField>
                    <CardField label={location ? 'Stock here / total' : 'Stock'}>
                      <ProductStock product={product} />
                    </CardField>
                    <CardField label="Category">{product.category.name}</CardField>
                    <CardField label="Supplier">{product.supplier.name}</CardField>
                    {showReorder ? (
                      <CardField label="Reorder at">
                        <ReorderPoint product={product} />
                      </CardField>
                    ) : null}
                  </CardFields>
                  <CardActions>
                    <EditDeleteButtons
                      name={product.name}
                      onEdit={() => setEditing({ product })}
                      onDelete={() => setDeleting(product)}
                      buttonExtra={CARD_BUTTON}
                    >
                      <Link
                        to={stockPath(product._id, paging.view)}
                        className={buttonClass('secondary', 'sm', CARD_BUTTON)}
                        aria-label={`Stock of ${product.name}`}
                      >
                        Stock
                      </Link>
                    </EditDeleteButtons>
                  </CardActions>
                </Card>
              ))}
            </CardList>
          )}
        </LoadState>
      ) : (
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
                {location ? 'Stock here / total' : 'Stock'}
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
                      <ProductTags product={product} />
                    </Td>
                    <Td>{product.category.name}</Td>
                    <Td>{product.supplier.name}</Td>
                    <Td className="whitespace-nowrap">
                      <ProductPrice product={product} />
                    </Td>
                    <Td>
                      <ProductStock product={product} />
                    </Td>
                    {showReorder ? (
                      <Td className="tabular-nums">
                        <ReorderPoint product={product} />
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
      )}
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
