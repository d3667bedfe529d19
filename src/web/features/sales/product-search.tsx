import { useQuery } from '@tanstack/react-query';
import { type Ref, useRef, useState } from 'react';
import type { Product } from '../../../shared/products';
import { REFUSALS } from '../../../shared/refusals';
import { buttonClass } from '../../components/button';
import { SearchCombobox } from '../../components/search-combobox';
import { VariantPicker } from '../../components/variant-picker';
import { errorMessage } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import { useCurrency } from '../../lib/store-settings';
import { SEARCH_DELAY_MS, useDebouncedValue } from '../../lib/use-paged-list';
import {
  chosenVariant,
  groupVariants,
  initialChoice,
  isGroup,
  type ProductOrGroup,
  type VariantGroup,
} from '../../lib/variant-groups';
import { searchKit } from '../offline/kit';
import { codeMatch } from './cart-rules';
import { lookUpCode, lookUpProducts, MATCHES_SIZE, productMatchesQuery } from './sales-api';

type Feedback = { kind: 'added' | 'error'; text: string; id: number };

/**
 * The counter's one search box. A scanner types a barcode or SKU and presses Enter: the product
 * with exactly that code is added at once (and the box is free for the next scan while it is
 * looked up). Typed words list the products by name; Enter or a click adds the highlighted one.
 */
export function ProductSearch({
  onAdd,
  inputRef,
  keyShortcuts,
  saleId,
  offlineProducts = null,
}: {
  onAdd: (product: Product) => void;
  /**
   * DESIGN §21: offline, the products the counter kept (with the stock left on this device):
   * scans and searches look in them instead of asking the server. Null: online.
   */
  offlineProducts?: readonly Product[] | null;
  inputRef: Ref<HTMLInputElement>;
  keyShortcuts?: string;
  /** The last sale made here: what a scan said before it was about the sale now done. */
  saleId: string | null;
}) {
  const currency = useCurrency();
  const [text, setText] = useState('');
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [saidFor, setSaidFor] = useState(saleId);
  if (saidFor !== saleId) {
    setSaidFor(saleId);
    setFeedback(null);
  }
  const [lookingUp, setLookingUp] = useState(0);
  // Scans are looked up one after another, so the cart takes them in the order they were made.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const said = useRef(0);

  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const offline = offlineProducts !== null;
  const list = useQuery({ ...productMatchesQuery(search), enabled: search !== '' && !offline });
  const waiting = !offline && (text.trim() !== search || (list.isFetching && list.isPlaceholderData));
  const products = offline
    ? searchKit(offlineProducts, text, MATCHES_SIZE)
    : text.trim() && list.data && !waiting
      ? list.data.products
      : [];
  // DESIGN §22: an item's variants are one match; picking it asks for its values.
  const matches = groupVariants(products);
  const [picking, setPicking] = useState<{ group: VariantGroup; chosen: Record<string, string> } | null>(
    null,
  );

  function say(kind: Feedback['kind'], message: string) {
    said.current += 1;
    setFeedback({ kind, text: message, id: said.current });
  }

  function add(product: Product) {
    // An admin's scan can name an inactive product (the search offers none): it is not sold.
    if (!product.active) {
      say('error', REFUSALS.PRODUCT_INACTIVE.sentence({ product: product.name }));
      return;
    }
    onAdd(product);
    say('added', `Added ${product.name}.`);
  }

  function pick(entry: ProductOrGroup) {
    setText('');
    if (!isGroup(entry)) {
      setPicking(null);
      add(entry);
      return;
    }
    setFeedback(null);
    setPicking({ group: entry, chosen: initialChoice(entry) });
  }

  function backToSearch() {
    setPicking(null);
    if (inputRef && typeof inputRef === 'object') inputRef.current?.focus();
  }

  async function lookUp(code: string) {
    if (offlineProducts !== null) {
      const exact = codeMatch(offlineProducts, code);
      if (exact) add(exact);
      else say('error', `No product kept on this device has the code or name “${code}”.`);
      return;
    }
    try {
      const exact = await lookUpCode(code);
      if (exact) {
        add(exact);
        return;
      }
      const products = await lookUpProducts(code);
      if (products.length > 0) {
        // Not a code but a name: the matches are listed for the cashier to choose from.
        setText((now) => (now === '' ? code : now));
        say('error', `No product has the code “${code}”. Choose one of the products named so.`);
      } else {
        say('error', `No product has the code or name “${code}”.`);
      }
    } catch (error) {
      say('error', `“${code}” could not be looked up: ${errorMessage(error)}`);
    }
  }

  function onEnter(highlighted: ProductOrGroup | undefined) {
    const code = text.trim();
    if (!code) return;
    if (highlighted) {
      // A variant's own barcode or SKU adds it at once, even when its item is the match shown.
      const exact = codeMatch(products, code);
      if (exact) {
        setText('');
        setPicking(null);
        add(exact);
      } else pick(highlighted);
      return;
    }
    setPicking(null);
    setText('');
    setLookingUp((count) => count + 1);
    queue.current = queue.current.then(() => lookUp(code)).finally(() => setLookingUp((count) => count - 1));
  }

  let status = '';
  if (text.trim()) {
    if (offline)
      status =
        matches.length === 0
          ? `No product kept on this device matches “${text.trim()}”.`
          : `${matches.length} ${matches.length === 1 ? 'product' : 'products'} found on this device.`;
    else if (list.isError && !waiting)
      status = `The products could not be loaded: ${errorMessage(list.error)}`;
    else if (waiting || list.isPending) status = 'Searching...';
    else if (matches.length === 0) status = `No product matches “${text.trim()}”.`;
    else status = `${matches.length} ${matches.length === 1 ? 'product' : 'products'} found.`;
  }
  const seen = lookingUp > 0 ? 'Looking up...' : text.trim() && matches.length === 0 ? status : null;

  return (
    <div>
      <SearchCombobox
        label="Scan or search a product"
        placeholder="Barcode, SKU or name..."
        hint="Scan or type a code and press Enter; type a name to choose from the matches."
        text={text}
        onText={(typed) => {
          setText(typed);
          setFeedback(null);
        }}
        matches={matches}
        renderMatch={(product) =>
          isGroup(product) ? (
            <>
              <span className="block font-medium text-slate-900">{product.name}</span>
              <span className="block text-xs text-slate-500">
                {product.variants.length} variants · {product.options.map((option) => option.name).join(', ')}
              </span>
            </>
          ) : (
            <>
              <span className="block font-medium text-slate-900">{product.name}</span>
              <span className="block text-xs text-slate-500">
                {formatMoney(product.price, currency)} · stock {product.stock}
                {product.sku ? ` · SKU ${product.sku}` : ''}
              </span>
            </>
          )
        }
        onPick={pick}
        onEnter={onEnter}
        status={status}
        inputRef={inputRef}
        keyShortcuts={keyShortcuts}
        autoFocus
      />
      {picking ? (
        <ValueChoice
          group={picking.group}
          chosen={picking.chosen}
          onChoose={(chosen) => setPicking({ group: picking.group, chosen })}
          onAdd={(variant) => {
            add(variant);
            backToSearch();
          }}
          onCancel={backToSearch}
        />
      ) : null}
      <div className="mt-1 min-h-5 text-sm">
        {/* The search's own state is announced by the box; what a scan did is announced here. */}
        {seen ? (
          <p aria-hidden="true" className="text-slate-500">
            {seen}
          </p>
        ) : null}
        <div aria-live="polite">
          {!seen && feedback ? (
            <p key={feedback.id} className={feedback.kind === 'error' ? 'text-red-700' : 'text-green-700'}>
              {feedback.text}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** An item picked at the counter: its values as buttons, then Add the variant they name. */
function ValueChoice({
  group,
  chosen,
  onChoose,
  onAdd,
  onCancel,
}: {
  group: VariantGroup;
  chosen: Record<string, string>;
  onChoose: (chosen: Record<string, string>) => void;
  onAdd: (variant: Product) => void;
  onCancel: () => void;
}) {
  const currency = useCurrency();
  const variant = chosenVariant(group, chosen);
  const missing = group.options
    .filter((option) => chosen[option.name] === undefined)
    .map((option) => option.name);
  return (
    <section
      aria-label={`Choose ${group.name}`}
      className="mt-2 space-y-2 rounded-md border border-indigo-200 bg-indigo-50/50 p-3"
      onKeyDown={(event) => event.key === 'Escape' && onCancel()}
    >
      <p className="text-sm font-medium text-slate-900">{group.name}</p>
      <VariantPicker group={group} chosen={chosen} onChoose={onChoose} />
      <p className="text-xs text-slate-600" aria-live="polite">
        {variant
          ? `${formatMoney(variant.price, currency)} · stock ${variant.stock}`
          : missing.length > 0
            ? `Choose the ${missing.map((name) => name.toLowerCase()).join(' and ')}.`
            : 'Not sold with these values.'}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={buttonClass('primary', 'sm')}
          disabled={!variant}
          onClick={() => variant && onAdd(variant)}
        >
          {variant ? `Add ${variant.name}` : 'Add'}
        </button>
        <button type="button" className={buttonClass('ghost', 'sm')} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
