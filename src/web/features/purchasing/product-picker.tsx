import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useState } from 'react';
import type { Product } from '../../../shared/products';
import { errorMessage } from '../../lib/api';
import { useMoney } from '../../lib/store-settings';
import { SEARCH_DELAY_MS, SEARCH_MAX_LENGTH, useDebouncedValue } from '../../lib/use-paged-list';
import { productSearchQuery } from './purchasing-api';

/**
 * "Add a product": a search box whose matches drop down as a listbox (the ARIA combobox pattern).
 * Arrow keys move through the matches, Enter picks, Escape closes; a click picks too.
 */
export function ProductPicker({
  onPick,
  isAdded,
}: {
  onPick: (product: Product) => void;
  isAdded: (productId: string) => boolean;
}) {
  const money = useMoney();
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const matches = useQuery({ ...productSearchQuery(search), enabled: search !== '' });
  const waiting = text.trim() !== search || (matches.isFetching && matches.isPlaceholderData);
  const products = text.trim() && matches.data && !waiting ? matches.data.products : [];
  const shown = open && text.trim() !== '';
  const current = products[Math.min(active, products.length - 1)];

  function pick(product: Product) {
    onPick(product);
    setText('');
    setOpen(false);
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (products.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((now) => (Math.min(now, products.length - 1) + step + products.length) % products.length);
    } else if (event.key === 'Enter') {
      // Enter in the box picks; it never submits the form around it.
      event.preventDefault();
      if (shown && current) pick(current);
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  let status = '';
  if (shown) {
    if (matches.isError && !waiting)
      status = `The products could not be loaded: ${errorMessage(matches.error)}`;
    else if (waiting || matches.isPending) status = 'Searching...';
    else if (products.length === 0) status = 'No products match.';
    else status = `${products.length} ${products.length === 1 ? 'product' : 'products'} found.`;
  }

  return (
    <div className="relative w-full sm:max-w-md">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        Add a product
      </label>
      <input
        id={id}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown && products.length > 0}
        aria-controls={listId}
        aria-activedescendant={shown && current ? `${id}-${current._id}` : undefined}
        autoComplete="off"
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Type a product name..."
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400"
      />
      <p role="status" className="sr-only">
        {status}
      </p>
      <div
        id={listId}
        role="listbox"
        aria-label="Matching products"
        hidden={!shown || products.length === 0}
        className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200"
      >
        {products.map((product) => (
          // Keyboard use goes through the combobox (aria-activedescendant); the mouse picks here.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input above handles the keys
          <div
            key={product._id}
            id={`${id}-${product._id}`}
            role="option"
            aria-selected={product._id === current?._id}
            tabIndex={-1}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(product)}
            className={`cursor-pointer px-3 py-2 ${product._id === current?._id ? 'bg-indigo-50' : ''}`}
          >
            <span className="block font-medium text-slate-900">
              {product.name}
              {isAdded(product._id) ? (
                <span className="font-normal text-slate-500"> (on this order)</span>
              ) : null}
            </span>
            <span className="block text-xs text-slate-500">
              {product.supplier.name} · stock {product.stock} · cost{' '}
              {product.cost == null ? 'unknown' : money(product.cost)}
            </span>
          </div>
        ))}
      </div>
      {shown && status && products.length === 0 ? (
        <p aria-hidden="true" className="mt-1 text-sm text-slate-500">
          {status}
        </p>
      ) : null}
    </div>
  );
}
