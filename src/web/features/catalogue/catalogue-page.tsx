import { useId, useState } from 'react';
import type { Product } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { SearchField, SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { ProductPrice } from '../../components/product-price';
import { StockBadge } from '../../components/stock-badge';
import {
  CARD_BUTTON,
  Card,
  CardActions,
  CardField,
  CardFields,
  CardList,
  Table,
  Td,
  Th,
  useCardLayout,
} from '../../components/table';
import { shortId } from '../../lib/format';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useProductChoices } from '../../lib/product-choices';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { catalogueQueryAt, useCataloguePage } from './catalogue-api';
import { OrderModal } from './order-modal';

/**
 * A product's Order button. When it cannot be pressed it says why beside it: a greyed button
 * alone left people guessing.
 */
function OrderButton({
  product,
  busy,
  onOrder,
  extra = '',
}: {
  product: Product;
  busy: boolean;
  onOrder: () => void;
  extra?: string;
}) {
  const reasonId = useId();
  const soldOut = product.stock <= 0;
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <button
        type="button"
        className={buttonClass('primary', 'sm', extra)}
        disabled={busy || soldOut}
        onClick={onOrder}
        aria-label={`Order ${product.name}`}
        aria-describedby={soldOut ? reasonId : undefined}
      >
        Order
      </button>
      {soldOut ? (
        <span id={reasonId} className="text-xs font-medium text-red-800">
          Out of stock
        </span>
      ) : null}
    </span>
  );
}

/** Employee, sales rep and medical rep: browse the products a page at a time and order them. */
export function CataloguePage() {
  const paging = usePagedList<'category'>();
  const categoryId = paging.params.get('category') ?? '';
  const asked = { page: paging.page, pageSize: paging.pageSize };
  // The address says which page to show; the route has asked for it already (prefetchCatalogue).
  const list = useCataloguePage(catalogueQueryAt(paging.params));
  const choices = useProductChoices();
  const [ordering, setOrdering] = useState<Product | null>(null);

  const page = serverPage(list.data && { ...list.data, rows: list.data.products }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);
  // Disabled while the list first loads; not during the refresh after an order, so focus can
  // return to the button that opened the modal.
  const busy = list.isPending;
  const cards = useCardLayout();

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
      {cards ? (
        <LoadState
          query={list}
          what="the products"
          waiting={isPastEnd(page)}
          isEmpty={() => page.total === 0}
          empty="No products found"
        >
          {() => (
            <CardList caption="Products you can order" busy={list.isPlaceholderData}>
              {page.rows.map((product) => (
                <Card key={product._id}>
                  <h2 className="font-semibold break-words text-slate-900">{product.name}</h2>
                  <CardFields>
                    <CardField label="Price">
                      <ProductPrice product={product} strong />
                    </CardField>
                    <CardField label="Stock">
                      <StockBadge stock={product.stock} reorderPoint={product.reorderPoint} />
                    </CardField>
                    <CardField label="Category">{product.category.name}</CardField>
                    <CardField label="ID">
                      <span className="font-mono text-xs text-slate-500" title={product._id}>
                        {shortId(product._id)}
                      </span>
                    </CardField>
                  </CardFields>
                  <CardActions>
                    <OrderButton
                      product={product}
                      busy={busy}
                      onOrder={() => setOrdering(product)}
                      extra={CARD_BUTTON}
                    />
                  </CardActions>
                </Card>
              ))}
            </CardList>
          )}
        </LoadState>
      ) : (
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
                    <Td className="whitespace-nowrap">
                      <ProductPrice product={product} />
                    </Td>
                    <Td>
                      <StockBadge stock={product.stock} reorderPoint={product.reorderPoint} />
                    </Td>
                    <Td stickyEnd>
                      <OrderButton product={product} busy={busy} onOrder={() => setOrdering(product)} />
                    </Td>
                  </tr>
                ))
              }
            </LoadState>
          </tbody>
        </Table>
      )}
      <Pager page={page} label="Products" onPage={paging.setPage} />
      {ordering ? <OrderModal product={ordering} onClose={() => setOrdering(null)} /> : null}
    </>
  );
}
