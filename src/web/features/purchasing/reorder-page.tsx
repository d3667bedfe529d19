import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  DraftFromSuggestionsInput,
  type DraftPurchaseOrdersResponse,
  linesTotal,
  type PurchaseOrder,
  type PurchaseOrderRef,
  type ReorderSuggestionLine,
  type ReorderSuggestionsResponse,
} from '../../../shared/purchasing';
import { buttonClass } from '../../components/button';
import { FormError } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { LocationPicker } from '../../components/location-picker';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { PURCHASE_ORDERS_PATH, purchaseOrderPath, stockPath } from '../../lib/admin-paths';
import { errorMessage, refusedAs } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useMoney } from '../../lib/store-settings';
import { reorderSuggestionsQuery, useDraftFromSuggestions, useKeys } from './purchasing-api';

type SupplierSuggestions = ReorderSuggestionsResponse['suppliers'][number];
/** Everything, or one supplier's id. */
type Scope = 'all' | string;

const numberIn = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

type Failure = { scope: Scope; text: string; draft?: PurchaseOrderRef };

/** The transfers screen's new transfer (built apart, DESIGN §17), filled in from a suggestion. */
const NEW_TRANSFER_PATH = '/admin-dashboard/transfers/new';
export function newTransferPath(from: string, to: string, product: string, quantity: number): string {
  const query = new URLSearchParams({ from, to, product, quantity: String(quantity) });
  return `${NEW_TRANSFER_PATH}?${query.toString()}`;
}

/**
 * Admin: what to order (DESIGN §9), a table per supplier, for the whole store or at one location
 * (DESIGN §17; the address keeps it, `?location=`). At a location each line first suggests a
 * transfer from the location that can spare most, then buying the rest. The suggested quantities
 * can be changed (0 leaves a product out) before drafting purchase orders for every supplier or
 * for one (delivered to the location when one is chosen). A supplier with a draft already says so
 * and links to it instead of drafting another (the server makes no second one either).
 */
export function ReorderPage() {
  const [params, setParams] = useSearchParams();
  const location = params.get('location') ?? '';
  const suggestions = useQuery(reorderSuggestionsQuery(location));
  const draft = useDraftFromSuggestions();
  const keys = useKeys();
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [created, setCreated] = useState<DraftPurchaseOrdersResponse | null>(null);
  // Drafts this page just made or was told of, shown until the suggestions are asked again.
  const [known, setKnown] = useState<Record<string, { draft: PurchaseOrderRef; at: number }>>({});
  // Another location starts afresh: what was typed or drafted for one is not carried to the next.
  const [shown, setShown] = useState(location);
  if (shown !== location) {
    setShown(location);
    setQuantities({});
    setErrors({});
    setFailure(null);
    setCreated(null);
    setKnown({});
  }
  const choose = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('location', value);
        else next.delete('location');
        return next;
      },
      { replace: true },
    );
  const knownDraft = (supplier: string) => {
    const found = known[supplier];
    return found && found.at > suggestions.dataUpdatedAt ? found.draft : null;
  };
  const groups = (suggestions.data?.suppliers ?? []).map((group) => ({
    ...group,
    draft: group.draft ?? knownDraft(group.supplier._id),
  }));
  const toDraft = groups.filter((group) => group.draft === null);
  const quantityText = (line: ReorderSuggestionLine) =>
    quantities[line.product._id] ?? String(line.suggested);

  function create(scope: Scope) {
    const inScope = toDraft.filter((group) => scope === 'all' || group.supplier._id === scope);
    const lines = inScope.flatMap((group) => group.lines);
    const parsed = DraftFromSuggestionsInput.safeParse({
      ...(scope === 'all' ? {} : { supplier: scope }),
      ...(location ? { location } : {}),
      quantities: Object.fromEntries(lines.map((line) => [line.product._id, numberIn(quantityText(line))])),
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues)
        found[String(issue.path[1] ?? issue.path[0])] ??= issue.message;
      setErrors(found);
      setFailure({ scope, text: 'Correct the quantities marked above.' });
      return;
    }
    setErrors({});
    if (!Object.values(parsed.data.quantities ?? {}).some((quantity) => quantity > 0)) {
      setFailure({ scope, text: 'Every quantity is 0: there is nothing to draft.' });
      return;
    }
    setFailure(null);
    draft.mutate(
      { input: parsed.data, key: keys.keyFor(parsed.data) },
      {
        onSuccess: (answer) => {
          keys.settled();
          const count = answer.purchaseOrders.length;
          setCreated(answer);
          remember([
            ...answer.purchaseOrders.map((order) => [order.supplier._id, order] as const),
            ...answer.existingDrafts.map((found) => [found.supplier._id, found.draft] as const),
          ]);
          if (count > 0)
            notify.success(`${count} draft purchase ${count === 1 ? 'order' : 'orders'} created.`);
          else if (answer.existingDrafts.length > 0)
            notify.success('Nothing new drafted: each supplier has a draft already.');
          else notify.success('Nothing left to draft: the suggestions changed meanwhile.');
        },
        onError: (error) => {
          keys.settled(error);
          const existing = refusedAs(error, 'DRAFT_EXISTS') ? error.existing : undefined;
          const draft = existing && { _id: existing._id, number: existing.name };
          if (draft && scope !== 'all') remember([[scope, draft]]);
          setFailure({ scope, text: errorMessage(error), ...(draft ? { draft } : {}) });
        },
      },
    );
  }

  function remember(drafts: ReadonlyArray<readonly [string, PurchaseOrderRef]>) {
    const at = Date.now();
    setKnown((now) => ({
      ...now,
      ...Object.fromEntries(
        drafts.map(([supplier, draft]) => [
          supplier,
          { draft: { _id: draft._id, number: draft.number }, at },
        ]),
      ),
    }));
  }

  return (
    <>
      <PageHeader title="Reorder suggestions">
        <Link to={PURCHASE_ORDERS_PATH} className={buttonClass('secondary')}>
          Purchase orders
        </Link>
        {toDraft.length > 0 ? (
          <button
            type="button"
            className={buttonClass('primary')}
            onClick={() => create('all')}
            disabled={draft.isPending}
          >
            {draft.isPending ? 'Creating...' : 'Create draft purchase orders'}
          </button>
        ) : null}
      </PageHeader>
      <search aria-label="Where to reorder for" className="mb-4 block">
        <LocationPicker value={location} onChange={choose} allLabel="The whole store" />
        {location ? (
          <p className="mt-2 text-sm text-slate-600">
            Judged by the stock and what is on order there; a transfer from another location comes before
            buying.
          </p>
        ) : null}
      </search>
      {failure?.scope === 'all' ? (
        <div className="mb-4">
          <FormError>{failure.text}</FormError>
        </div>
      ) : null}
      {created && (created.purchaseOrders.length > 0 || created.existingDrafts.length > 0) ? (
        <CreatedDrafts drafts={created.purchaseOrders} existing={created.existingDrafts} />
      ) : null}
      <LoadState
        query={suggestions}
        what="the suggestions"
        loading="Loading the suggestions..."
        isEmpty={() => groups.length === 0}
        empty="Nothing to reorder: every product is above its reorder point."
      >
        {() => (
          <div className="space-y-8">
            {groups.map((group) => (
              <SupplierSection
                key={group.supplier._id}
                group={group}
                location={suggestions.data?.location}
                quantityText={quantityText}
                errors={errors}
                failure={failure?.scope === group.supplier._id ? failure : null}
                pending={draft.isPending}
                onQuantity={(productId, value) => setQuantities((now) => ({ ...now, [productId]: value }))}
                onDraft={() => create(group.supplier._id)}
              />
            ))}
          </div>
        )}
      </LoadState>
    </>
  );
}

function CreatedDrafts({
  drafts,
  existing,
}: {
  drafts: PurchaseOrder[];
  existing: DraftPurchaseOrdersResponse['existingDrafts'];
}) {
  const money = useMoney();
  return (
    <div
      role="status"
      className="mb-6 rounded-lg border border-green-200 bg-green-50 p-4 text-sm text-green-900"
    >
      {drafts.length > 0 ? (
        <>
          <p className="font-medium">
            {drafts.length === 1 ? 'Draft purchase order created:' : 'Draft purchase orders created:'}
          </p>
          <ul className="mt-2 space-y-1">
            {drafts.map((order) => (
              <li key={order._id}>
                <Link to={purchaseOrderPath(order._id)} className="font-medium underline">
                  {order.number}
                </Link>{' '}
                {order.supplier.name}, {money(order.total)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {existing.length > 0 ? (
        <>
          <p className={`font-medium ${drafts.length > 0 ? 'mt-3' : ''}`}>
            Not drafted again, a draft exists already:
          </p>
          <ul className="mt-2 space-y-1">
            {existing.map((found) => (
              <li key={found.draft._id}>
                <Link to={purchaseOrderPath(found.draft._id)} className="font-medium underline">
                  {found.draft.number}
                </Link>{' '}
                {found.supplier.name}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Link to={`${PURCHASE_ORDERS_PATH}?status=draft`} className="mt-2 inline-block underline">
        See every draft
      </Link>
    </div>
  );
}

function SupplierSection({
  group,
  location,
  quantityText,
  errors,
  failure,
  pending,
  onQuantity,
  onDraft,
}: {
  group: SupplierSuggestions;
  /** The location judged, when one is: its lines may suggest transfers. */
  location: ReorderSuggestionsResponse['location'];
  quantityText: (line: ReorderSuggestionLine) => string;
  errors: Record<string, string>;
  failure: Failure | null;
  pending: boolean;
  onQuantity: (productId: string, value: string) => void;
  onDraft: () => void;
}) {
  const money = useMoney();
  const headingId = useId();
  const { supplier, lines, draft } = group;
  const counted = lines
    .map((line) => ({ quantity: numberIn(quantityText(line)), unitCost: line.unitCost }))
    .filter((line) => Number.isInteger(line.quantity) && line.quantity > 0);
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {supplier.name}
        </h2>
        {draft ? (
          <Link to={purchaseOrderPath(draft._id)} className={buttonClass('secondary', 'sm')}>
            Open draft {draft.number}
            <span className="sr-only"> ({supplier.name})</span>
          </Link>
        ) : (
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            onClick={onDraft}
            disabled={pending}
          >
            Draft for this supplier<span className="sr-only"> ({supplier.name})</span>
          </button>
        )}
      </div>
      {draft ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          Draft {draft.number} exists for {supplier.name}: change its lines there rather than drafting
          another.
        </p>
      ) : null}
      <Table caption={`Reorder suggestions from ${supplier.name}`}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Product</Th>
            <Th className="text-right">Stock</Th>
            <Th className="text-right">On order</Th>
            <Th className="text-right">Reorder point</Th>
            {location ? <Th>Transfer first</Th> : null}
            <Th className="text-right">Order quantity</Th>
            <Th className="text-right">Unit cost</Th>
            <Th className="text-right">Line total</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {lines.map((line) => (
            <SuggestionRow
              key={line.product._id}
              line={line}
              location={location}
              value={quantityText(line)}
              error={errors[line.product._id]}
              onChange={(value) => onQuantity(line.product._id, value)}
            />
          ))}
        </tbody>
        <tfoot className="border-t border-slate-200 bg-slate-50">
          <tr className="max-sm:flex max-sm:justify-between max-sm:px-3 max-sm:py-3">
            <th
              scope="row"
              colSpan={location ? 7 : 6}
              className="px-3 py-3 text-left font-semibold sm:px-4 sm:text-right max-sm:p-0"
            >
              Subtotal
            </th>
            <td className="whitespace-nowrap px-3 py-3 text-right font-semibold tabular-nums sm:px-4 max-sm:p-0">
              {money(linesTotal(counted))}
            </td>
          </tr>
        </tfoot>
      </Table>
      <FormError>{failure?.text ?? null}</FormError>
      {failure?.draft && failure.draft._id !== draft?._id ? (
        <Link to={purchaseOrderPath(failure.draft._id)} className={buttonClass('secondary', 'sm')}>
          Open draft {failure.draft.number}
          <span className="sr-only"> ({supplier.name})</span>
        </Link>
      ) : null}
    </section>
  );
}

function SuggestionRow({
  line,
  location,
  value,
  error,
  onChange,
}: {
  line: ReorderSuggestionLine;
  location: ReorderSuggestionsResponse['location'];
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const money = useMoney();
  const id = useId();
  const quantity = numberIn(value);
  const known = Number.isInteger(quantity) && quantity >= 0;
  return (
    <tr className={`align-top ${STACKED_ROW}`}>
      <Td className={`font-medium max-sm:col-span-2 sm:pt-4 ${STACKED_CELL}`}>
        <Link to={stockPath(line.product._id)} className="text-indigo-700 hover:underline">
          {line.product.name}
        </Link>
      </Td>
      <Td className={`text-right tabular-nums max-sm:hidden sm:pt-4`}>{line.stock}</Td>
      <Td className={`text-right tabular-nums max-sm:hidden sm:pt-4`}>{line.onOrder}</Td>
      <Td
        className={`text-right tabular-nums max-sm:col-start-1 max-sm:text-left max-sm:text-xs max-sm:text-slate-600 sm:pt-4 ${STACKED_CELL}`}
      >
        <span className="sm:hidden">
          Stock {line.stock}, on order {line.onOrder}, reorder point{' '}
        </span>
        {line.reorderPoint}
      </Td>
      {location ? <TransferCell line={line} to={location._id} /> : null}
      <Td className={`text-right max-sm:col-start-2 max-sm:row-span-2 max-sm:row-start-2 ${STACKED_CELL}`}>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          aria-label={`Quantity of ${line.product.name} to order`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={`w-24 rounded-md border bg-white px-2 py-1.5 text-right text-sm tabular-nums shadow-sm ${error ? 'border-red-500' : 'border-slate-300'}`}
        />
        {error ? (
          <span id={`${id}-error`} className="mt-1 block text-xs text-red-600">
            {error}
          </span>
        ) : null}
      </Td>
      <Td
        className={`text-right tabular-nums max-sm:col-start-1 max-sm:text-left max-sm:text-xs max-sm:text-slate-600 sm:pt-4 ${STACKED_CELL}`}
      >
        <span className="sm:hidden">Unit cost </span>
        {money(line.unitCost)}
      </Td>
      <Td
        className={`whitespace-nowrap text-right font-medium tabular-nums max-sm:col-span-2 max-sm:text-left sm:pt-4 ${STACKED_CELL}`}
      >
        <span className="sm:hidden">Line total </span>
        {known ? money(linesTotal([{ quantity, unitCost: line.unitCost }])) : '—'}
      </Td>
    </tr>
  );
}

/** "Transfer 18 from Stockroom" with a link to a new transfer filled in, or "None to spare". */
function TransferCell({ line, to }: { line: ReorderSuggestionLine; to: string }) {
  const from = line.transferFrom;
  return (
    <Td className={`max-sm:col-span-2 max-sm:text-sm sm:pt-4 ${STACKED_CELL}`}>
      {from && from.quantity > 0 ? (
        <>
          <Link
            to={newTransferPath(from.location._id, to, line.product._id, from.quantity)}
            className="font-medium text-indigo-700 hover:underline"
          >
            Transfer {from.quantity} from {from.location.name}
            <span className="sr-only"> ({line.product.name})</span>
          </Link>
          <span className="block text-xs text-slate-600">
            {from.available} to spare there
            {line.suggested === 0 ? '; nothing left to buy' : `; buy the other ${line.suggested}`}
          </span>
        </>
      ) : (
        <span className="text-slate-500">None to spare elsewhere</span>
      )}
    </Td>
  );
}
