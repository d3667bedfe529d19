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
import { VariantPicker } from '../../components/variant-picker';
import { shortId } from '../../lib/format';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useProductChoices } from '../../lib/product-choices';
import { useMoney } from '../../lib/store-settings';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import {
  chosenVariant,
  groupVariants,
  initialChoice,
  isGroup,
  type VariantGroup,
} from '../../lib/variant-groups';
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

/** An item's variants' prices, lowest to highest. */
function PriceRange({ group }: { group: VariantGroup }) {
  const money = useMoney();
  const prices = group.variants.map((variant) => variant.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return <span className="tabular-nums">{low === high ? money(low) : `${money(low)}–${money(high)}`}</span>;
}

/**
 * An item's variants as one entry (DESIGN §22): its values to pick, then the chosen variant's
 * price, stock and Order button. `layout` draws it as a table row or a phone's card.
 */
function VariantGroupEntry({
  group,
  busy,
  onOrder,
  layout,
}: {
  group: VariantGroup;
  busy: boolean;
  onOrder: (product: Product) => void;
  layout: 'row' | 'card';
}) {
  const [chosen, setChosen] = useState(() => initialChoice(group));
  const variant = chosenVariant(group, chosen);
  const reasonId = useId();
  const missing = group.options
    .filter((option) => chosen[option.name] === undefined)
    .map((option) => option.name.toLowerCase());
  const reason = missing.length > 0 ? `Choose the ${missing.join(' and ')}` : variant ? null : 'Not sold so';
  const picker = <VariantPicker group={group} chosen={chosen} onChoose={setChosen} />;
  const price = variant ? (
    <ProductPrice product={variant} strong={layout === 'card'} />
  ) : (
    <PriceRange group={group} />
  );
  const stock = variant ? <StockBadge stock={variant.stock} reorderPoint={variant.reorderPoint} /> : '—';
  const order = variant ? (
    <OrderButton
      product={variant}
      busy={busy}
      onOrder={() => onOrder(variant)}
      extra={layout === 'card' ? CARD_BUTTON : ''}
    />
  ) : (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <button
        type="button"
        className={buttonClass('primary', 'sm', layout === 'card' ? CARD_BUTTON : '')}
        disabled
        aria-label={`Order ${group.name}`}
        aria-describedby={reasonId}
      >
        Order
      </button>
      <span id={reasonId} className="text-xs font-medium text-slate-600">
        {reason}
      </span>
    </span>
  );
  const category = group.variants[0]?.category.name ?? '';
  if (layout === 'card')
    return (
      <Card>
        <h2 className="font-semibold break-words text-slate-900">{group.name}</h2>
        <div className="mt-2">{picker}</div>
        <CardFields>
          <CardField label="Price">{price}</CardField>
          <CardField label="Stock">{stock}</CardField>
          <CardField label="Category">{category}</CardField>
        </CardFields>
        <CardActions>{order}</CardActions>
      </Card>
    );
  return (
    <tr className="hover:bg-slate-50">
      <Td className="font-mono text-xs text-slate-500">
        {variant ? <span title={variant._id}>{shortId(variant._id)}</span> : null}
      </Td>
      <Td className="font-medium">
        {group.name}
        <div className="mt-1.5">{picker}</div>
      </Td>
      <Td>{category}</Td>
      <Td className="whitespace-nowrap">{price}</Td>
      <Td>{stock}</Td>
      <Td stickyEnd>{order}</Td>
    </tr>
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
              {groupVariants(page.rows).map((product) =>
                isGroup(product) ? (
                  <VariantGroupEntry
                    key={product._id}
                    group={product}
                    busy={busy}
                    onOrder={setOrdering}
                    layout="card"
                  />
                ) : (
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
                ),
              )}
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
                groupVariants(page.rows).map((product) =>
                  isGroup(product) ? (
                    <VariantGroupEntry
                      key={product._id}
                      group={product}
                      busy={busy}
                      onOrder={setOrdering}
                      layout="row"
                    />
                  ) : (
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
                  ),
                )
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
