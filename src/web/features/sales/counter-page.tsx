import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { centsNumber, isCartProblem } from '../../../shared/money';
import type { Product } from '../../../shared/products';
import type { Role } from '../../../shared/roles';
import { type ApprovalInput, type Sale, SaleInput, saleNumberLabel } from '../../../shared/sales';
import type { RegisterSession } from '../../../shared/till';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { ApiRequestError, errorMessage, refusedAs } from '../../lib/api';
import { withElsewhere } from '../../lib/api-error';
import { salePath } from '../../lib/area-paths';
import { useOffline } from '../../lib/connection';
import { formatMoney } from '../../lib/format';
import { idempotencyKeys } from '../../lib/idempotency';
import { useSignedInUser } from '../../lib/signed-in';
import { kitOf } from '../offline/kit';
import { offlineStop, offlineStopSentence } from '../offline/limits';
import { recount, sendNow, useOutbox } from '../offline/outbox';
import { waiting } from '../offline/queue';
import { useCounterKit } from '../offline/use-counter-kit';
import { TillGate } from '../till/till-gate';
import { ApprovalDialog, type ApprovalReason } from './approval-dialog';
import { CartLines } from './cart-lines';
import {
  addToCart,
  type Cart,
  changeFor,
  isAboveStock,
  itemCount,
  priceOf,
  quantityOf,
  refreshProducts,
  removeLine,
  setLineDiscount,
  setQuantity,
  stepQuantity,
} from './cart-rules';
import {
  type CounterDraft,
  EMPTY_DRAFT,
  isEmptyDraft,
  MAX_PARKED,
  type ParkedSale,
  readParked,
  writeParked,
} from './counter-drafts';
import { useRereadWhileOpen } from './counter-reread';
import { SHORTCUT_KEYS, ShortcutLegend, useCounterShortcuts } from './counter-shortcuts';
import { CounterTotals } from './counter-totals';
import { CustomerPicker } from './customer-picker';
import { DiscountEditor } from './discount-editor';
import { OfflineQueue, OfflineReceipt, OfflineState } from './offline-counter';
import { deviceReceipt, keepOfflineSale, offlineRefusal, paymentsOf } from './offline-sale';
import { ParkedSales, parkedName } from './parked-sales';
import { PaymentForm } from './payment-form';
import { SplitPayments } from './payments-editor';
import { ProductSearch } from './product-search';
import {
  type CounterStore,
  readProducts,
  rereadStoreSettings,
  storeSettingsQuery,
  useCompleteSale,
} from './sales-api';
import { useCounterDraft, withLines } from './use-counter-draft';

/** The server's refusals a manager's approval answers (a wrong or missing PIN, too many tries). */
const APPROVAL_REFUSED = ['APPROVAL_NEEDED', 'WRONG_PIN', 'TOO_MANY_PINS'] as const;

/**
 * The sale counter (DESIGN §11): scan or find products into a cart, optionally name the customer,
 * take the payment and complete the sale; the counter is then ready for the next one, the last
 * sale's receipt a click away. The unfinished sale is kept in this browser for the signed-in user
 * (counter-drafts.ts), and sales can be parked to serve someone else first.
 */
export function CounterPage() {
  const user = useSignedInUser();
  const offline = useOffline();
  // DESIGN §21: offline, the counter sells in the session it kept on this device.
  const [keptSession, setKeptSession] = useState<RegisterSession | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: going offline is the signal to read again
  useEffect(() => {
    let current = true;
    kitOf(user._id)
      .then((kit) => {
        if (current) setKeptSession(kit?.session ?? null);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [user._id, offline]);
  // Another user is another counter: nothing of one user's sale may reach the other's storage.
  // The counter always sells in an open till session (DESIGN §13): the gate asks for one first.
  return (
    <TillGate offline={offline} kept={keptSession}>
      {(session) => <Counter key={user._id} user={user} openSession={session} />}
    </TillGate>
  );
}

type Notice = { kind: 'info' | 'error'; text: string };

/**
 * A refused sale's sentence; a line short at this counter's location also says where else the
 * product is (DESIGN §17: "Elsewhere: 12 at Stockroom.").
 */
function shownError(error: unknown): string {
  const sentence = errorMessage(error);
  return refusedAs(error, 'SHORT_AT_LOCATION', 'UNEXPIRED_SHORT') ? withElsewhere(sentence, error) : sentence;
}

function Counter({ user, openSession }: { user: User; openSession: RegisterSession }) {
  const session = openSession._id;
  /** Where the sale takes stock from (DESIGN §17): the session's register and its location. */
  const place = { location: openSession.location.name, register: openSession.register.name };
  // DESIGN §21: what the counter sells from while the server cannot be reached.
  const offline = useOffline();
  const outbox = useOutbox();
  const searchRef = useRef<HTMLInputElement>(null);
  const quantityRef = useRef<HTMLInputElement>(null);
  const payRef = useRef<HTMLInputElement>(null);
  const completeRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const parkedId = useId();
  const serverSettings = useQuery(storeSettingsQuery);
  const serverStore = serverSettings.data?.store ?? null;
  const kit = useCounterKit(user._id, offline ? null : openSession, serverStore);
  // Offline, the store's settings as kept with the counter's kit (the server's read, paused, has none).
  const keptStore = offline && !serverSettings.data ? (kit.kit?.store ?? null) : null;
  const settings = keptStore
    ? { ...serverSettings, data: { success: true as const, store: keptStore }, isError: false, error: null }
    : serverSettings;
  const store: CounterStore | undefined = settings.data?.store;
  /** The store is being read again after the server said the total moved: the sale waits for it. */
  const [rereading, setRereading] = useState(false);
  const counter = useCounterDraft({ userId: user._id, role: user.role, store, rereading });
  const { draft, setDraft, currency, priced, pricedCart, total, overLimit, cash } = counter;
  const { tenderedError, blocked, canSellAnyway, checkLineDiscount, checkCartDiscount } = counter;
  const [parked, setParked] = useState<ParkedSale[]>(() => readParked(user._id));
  const [showParked, setShowParked] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [lastSale, setLastSale] = useState<Sale | null>(null);
  /** The receipt of the last sale kept on this device offline. */
  const [lastKept, setLastKept] = useState<Sale | null>(null);
  const [keeping, setKeeping] = useState(false);
  /** Why selling offline has stopped (DESIGN §21: too old, too many), or null. */
  const [stopped, setStopped] = useState<string | null>(null);
  /** The manager's approval being asked for, and whether the lines above stock are sold anyway. */
  const [approving, setApproving] = useState<{ overStock: boolean } | null>(null);
  const queryClient = useQueryClient();
  const [keys] = useState(() => {
    const made = idempotencyKeys();
    made.restore(draft.unanswered);
    return made;
  });
  const complete = useCompleteSale(keys);
  const busy = complete.isPending || keeping;
  const { lines: cart, customer, method, tendered, discount: cartDiscount, split, payments } = draft;

  useEffect(() => writeParked(user._id, parked), [user._id, parked]);

  /**
   * A cart kept from earlier shows its products as the server has them now (price and stock);
   * a product deleted meanwhile leaves the cart, and the cashier is told.
   */
  const refresh = useCallback(
    async (lines: Cart) => {
      if (lines.length === 0) return;
      const { products, gone } = await readProducts(lines.map((line) => line.product._id));
      setDraft((now) => ({
        ...now,
        lines: refreshProducts(now.lines, products).filter((line) => !gone.includes(line.product._id)),
      }));
      const names = lines.filter((line) => gone.includes(line.product._id)).map((line) => line.product.name);
      if (names.length > 0)
        setNotice({
          kind: 'error',
          text: `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} no longer sold and ${
            names.length === 1 ? 'was' : 'were'
          } taken out of the sale.`,
        });
    },
    [setDraft],
  );

  // A submit that got no answer is sent again as it was (its key, its total): the server may have
  // made that sale, and only the same request is answered with it rather than made twice.
  const restored = useRef(draft.unanswered ? [] : draft.lines);
  useEffect(() => void refresh(restored.current), [refresh]);

  /**
   * Everything the counter prices with, read again: the store's settings and its cart's products
   * (each with its price and the tax rate in force, the store's default included). Cheap: one
   * call and one per line; a failed read keeps what the counter had. Not while a submit waits for
   * its retry (see `restored`): if the server never had it, the retry's refusal reads them.
   */
  const cartNow = useRef(cart);
  useEffect(() => {
    cartNow.current = cart;
  }, [cart]);
  const reread = useCallback(async () => {
    if (keys.unanswered()) return;
    await Promise.all([rereadStoreSettings(queryClient), refresh(cartNow.current)]);
  }, [keys, queryClient, refresh]);
  useRereadWhileOpen(reread);

  /** A change made by the cashier: the last refusal no longer describes the sale. */
  function change(next: (draft: CounterDraft) => CounterDraft) {
    if (busy) return;
    setDraft(next);
    if (complete.isError) complete.reset();
  }
  const edit = (next: (cart: Cart) => Cart) => change((now) => withLines(now, next(now.lines)));

  function toScanBox() {
    searchRef.current?.focus();
  }

  function parkedNow(): ParkedSale {
    return { id: crypto.randomUUID(), parkedAt: new Date().toISOString(), draft };
  }

  function park() {
    if (busy || isEmptyDraft(draft)) return;
    if (parked.length >= MAX_PARKED) {
      setNotice({
        kind: 'error',
        text: `At most ${MAX_PARKED} sales can be parked: resume or discard one first.`,
      });
      return;
    }
    setParked((now) => [parkedNow(), ...now]);
    change(() => EMPTY_DRAFT);
    // The parked sale keeps its unanswered submit; the next sale here is another one.
    keys.restore(null);
    setNotice({
      kind: 'info',
      text: customer ? `The sale for ${customer.name} is parked.` : 'The sale is parked.',
    });
    toScanBox();
  }

  /** Brings a parked sale back; a sale in progress is parked in its place, never dropped. */
  function resume(chosen: ParkedSale) {
    if (busy) return;
    const keep = !isEmptyDraft(draft);
    const current = keep ? [parkedNow()] : [];
    setParked((now) => [...current, ...now.filter((one) => one.id !== chosen.id)]);
    change(() => chosen.draft);
    keys.restore(chosen.draft.unanswered);
    setShowParked(false);
    setNotice({
      kind: 'info',
      text: `Resumed the sale ${parkedName(chosen)}.${keep ? ' The sale in progress was parked.' : ''}`,
    });
    refresh(chosen.draft.lines);
    toScanBox();
  }

  function discard(chosen: ParkedSale) {
    setParked((now) => now.filter((one) => one.id !== chosen.id));
    setNotice({ kind: 'info', text: `Discarded the sale ${parkedName(chosen)}.` });
    toScanBox();
  }

  /**
   * A sale sent without an answer may be on the server already: it is only ever sent again as it
   * was (its key), never kept offline as well, so offline too Complete sale tries the server.
   */
  const keptOffline = offline && !draft.unanswered;
  /** Why this sale cannot be kept offline (DESIGN §21), or null; null when it is not kept offline. */
  const offlineProblem = !keptOffline
    ? null
    : (stopped ??
      (store && cart.length > 0 ? offlineRefusal(draft, overLimit, store.maxDiscountPercent) : null));

  // Selling offline stops after offlineHours or 500 unsent sales (DESIGN §21): judged again when
  // the count moves, so the counter says so before the next sale rather than after it.
  const offlineHours = store?.offlineHours;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the count is the signal to judge again
  useEffect(() => {
    if (!offline || offlineHours === undefined) {
      setStopped(null);
      return;
    }
    let current = true;
    waiting(user._id)
      .then((queue) => {
        const stop = offlineStop(queue, new Date(), offlineHours);
        if (current) setStopped(stop ? offlineStopSentence(stop) : null);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [offline, offlineHours, user._id, outbox.waiting]);

  /**
   * Offline (DESIGN §21): the sale is kept on this device, numbered by it, and sent when the
   * server answers again. Checked against the limits once more as it is kept.
   */
  async function keepOffline() {
    if (!store || offlineProblem) return;
    setKeeping(true);
    try {
      const stop = offlineStop(await waiting(user._id), new Date(), store.offlineHours);
      if (stop) {
        setStopped(offlineStopSentence(stop));
        return;
      }
      const kept = await keepOfflineSale({
        sellerId: user._id,
        draft,
        cash,
        total,
        session,
        registerName: openSession.register.name,
      });
      setDraft(EMPTY_DRAFT);
      setLastSale(null);
      setLastKept(
        deviceReceipt({
          kept,
          cart: draft.lines,
          store,
          seller: { _id: user._id, name: user.name },
          customer: draft.customer ? { _id: draft.customer._id, name: draft.customer.name } : null,
          session: openSession,
        }),
      );
      setNotice(null);
      void recount(user._id).then(() => sendNow(user._id));
      toScanBox();
    } catch (error) {
      setNotice({
        kind: 'error',
        text: `This sale could not be kept on this device: ${errorMessage(error)}`,
      });
    } finally {
      setKeeping(false);
    }
  }

  /** Complete sale: a discount above the limit first asks a manager (admins are not limited). */
  function submit(event: FormEvent) {
    event.preventDefault();
    if (blocked || busy) return;
    if (keptOffline) {
      void keepOffline();
      return;
    }
    if (overLimit.length > 0) {
      complete.reset();
      setApproving({ overStock: false });
      return;
    }
    send(null, false);
  }

  function sellAnyway() {
    if (busy || !canSellAnyway || offline) return;
    complete.reset();
    setApproving({ overStock: true });
  }

  /**
   * Sends the sale, with a manager's approval when one was given; with `overStock`, the lines
   * above the stock last read are sold anyway. Whatever the answer, the cart stays until a sale
   * is made.
   */
  function send(approval: ApprovalInput | null, overStock: boolean) {
    const input = SaleInput.safeParse({
      lines: cart.map((line) => ({
        productId: line.product._id,
        quantity: quantityOf(line.quantity),
        ...(line.discount ? { discount: line.discount } : {}),
        ...(overStock && isAboveStock(line) ? { overrideStock: true } : {}),
      })),
      ...(cartDiscount ? { discount: cartDiscount } : {}),
      ...(approval ? { approval } : {}),
      customer: customer?._id,
      // One payment is the total by its method; cash is what was handed over (empty: the total).
      payments: paymentsOf(draft, cash, total),
      session,
      // The total on the screen: the server refuses the sale (TOTAL_CHANGED) when it is not its own.
      total,
    });
    if (!input.success) return;
    complete.mutate(input.data, {
      onSuccess: ({ sale }) => {
        // The sale is made: the counter is the next customer's, the scan box ready for them.
        setDraft(EMPTY_DRAFT);
        setApproving(null);
        setLastSale(sale);
        setLastKept(null);
        setNotice(null);
        toScanBox();
      },
      onError: (error) => {
        // Kept with the cart: a retry after a reload then carries this submit's key.
        setDraft((now) => ({ ...now, unanswered: keys.unanswered() }));
        const status = error instanceof ApiRequestError ? error.status : null;
        // A refusal may come of prices, taxes or stock that moved: the counter reads them again at
        // once. When the total moved, the sale waits for them, so the screen shows the new total
        // (and the change from it) before the cashier completes again.
        if (status !== null && status >= 400 && status < 500 && status !== 401) {
          const moved = error instanceof ApiRequestError && error.code === 'TOTAL_CHANGED';
          if (moved) setRereading(true);
          void reread().finally(() => {
            if (moved) setRereading(false);
          });
        }
        // A refused approval is said in the dialog, which stays for another try; the server
        // asking for an approval the counter did not expect (the limit changed) opens it.
        if (refusedAs(error, ...APPROVAL_REFUSED)) {
          setApproving((now) => now ?? { overStock: false });
          return;
        }
        setApproving(null);
      },
    });
  }

  const approvalReason: ApprovalReason = {
    overLimit: overLimit.map((at) => cart[at]?.product.name ?? ''),
    overStock: approving?.overStock ? cart.filter(isAboveStock).map((line) => line.product.name) : [],
  };

  useCounterShortcuts((shortcut) => {
    if (shortcut === 'scan') {
      searchRef.current?.focus();
      searchRef.current?.select();
    } else if (shortcut === 'quantity') {
      quantityRef.current?.focus();
      quantityRef.current?.select();
    } else if (shortcut === 'pay') {
      payRef.current?.focus();
    } else {
      formRef.current?.requestSubmit();
    }
  });

  const serverError =
    complete.error instanceof ApiRequestError && complete.error.status === 401 ? null : complete.error;
  // While the manager is asked, the dialog says the server's refusal.
  const approvalError = approving && serverError ? shownError(serverError) : null;

  return (
    <>
      <PageHeader title="New sale">
        <button
          type="button"
          className={buttonClass('secondary')}
          onClick={() => setShowParked((now) => !now)}
          aria-expanded={showParked}
          aria-controls={parkedId}
        >
          Parked ({parked.length})
        </button>
        <button
          type="button"
          className={buttonClass('secondary')}
          onClick={park}
          disabled={busy || isEmptyDraft(draft)}
        >
          Park sale
        </button>
      </PageHeader>
      <p className="-mt-4 mb-4 text-sm text-slate-600">
        Selling from <strong className="font-semibold text-slate-900">{place.location}</strong> ·{' '}
        {place.register}
      </p>
      <OfflineState offline={offline} outbox={outbox} stopped={stopped} kitKeptAt={kit.kit?.keptAt ?? null} />
      {showParked ? (
        <ParkedSales
          id={parkedId}
          parked={parked}
          disabled={busy}
          onResume={resume}
          onDiscard={discard}
          totalOf={(one) => {
            const sum = store ? priceOf(one.draft.lines, one.draft.discount, store.pricesIncludeTax) : null;
            return sum && !isCartProblem(sum) ? formatMoney(centsNumber(sum.total), currency) : '—';
          }}
        />
      ) : null}
      <div aria-live="polite" className="empty:hidden mb-4 space-y-2">
        {notice ? (
          <p className={`text-sm ${notice.kind === 'error' ? 'text-red-700' : 'text-slate-700'}`}>
            {notice.text}
          </p>
        ) : null}
        {lastSale ? <LastSale sale={lastSale} role={user.role} /> : null}
        {lastKept ? <OfflineReceipt receipt={lastKept} /> : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <section aria-label="Products of the sale" className="min-w-0 space-y-4">
          <ProductSearch
            inputRef={searchRef}
            keyShortcuts={SHORTCUT_KEYS.scan}
            saleId={lastSale?._id ?? lastKept?._id ?? null}
            offlineProducts={offline ? (kit.products ?? []) : null}
            onAdd={(product: Product) => edit((now) => addToCart(now, product))}
          />
          <CartLines
            cart={cart}
            pricing={{
              lines: pricedCart?.lines ?? null,
              overLine:
                priced && isCartProblem(priced) && priced.problem === 'lineDiscountAboveGross'
                  ? priced.line
                  : null,
              currency,
            }}
            disabled={busy}
            searchRef={searchRef}
            lastQuantityRef={quantityRef}
            onQuantity={(id, quantity) => edit((now) => setQuantity(now, id, quantity))}
            onStep={(id, step) => edit((now) => stepQuantity(now, id, step))}
            onRemove={(id) => edit((now) => removeLine(now, id))}
            onDiscount={(id, discount) => edit((now) => setLineDiscount(now, id, discount))}
            checkDiscount={checkLineDiscount}
          />
        </section>
        <div className="space-y-4 lg:sticky lg:top-8">
          <section
            aria-labelledby="sale-customer"
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          >
            <h2 id="sale-customer" className="mb-3 text-sm font-semibold text-slate-900">
              Customer <span className="font-normal text-slate-500">(optional)</span>
            </h2>
            <CustomerPicker
              customer={customer}
              onChange={(next) => change((now) => ({ ...now, customer: next }))}
              disabled={busy || offline}
            />
            {offline ? (
              <p className="mt-2 text-xs text-slate-600">
                Customers are found and added on the server: not while offline.
              </p>
            ) : null}
          </section>
          <PaymentForm
            formRef={formRef}
            payRef={payRef}
            completeRef={completeRef}
            split={split}
            onSplit={(next) => change((now) => ({ ...now, split: next }))}
            splitEditor={
              <SplitPayments
                total={total}
                payments={payments}
                onChange={(next) => change((now) => ({ ...now, payments: next }))}
                customer={customer}
                currency={currency}
                disabled={busy || cart.length === 0 || !pricedCart}
                amountRef={payRef}
                completeRef={completeRef}
              />
            }
            method={method}
            onMethod={(next) => change((now) => ({ ...now, method: next }))}
            tendered={tendered}
            onTendered={(next) => change((now) => ({ ...now, tendered: next }))}
            tenderedError={tenderedError}
            change={cash !== null && !Number.isNaN(cash) && !tenderedError ? changeFor(cash, total) : null}
            totals={
              <CounterTotals
                settings={settings}
                priced={priced}
                items={itemCount(cart)}
                currency={currency}
                discountEditor={
                  cart.length > 0 ? (
                    <DiscountEditor
                      what="the sale"
                      buttonText="Discount on the sale"
                      showValue
                      discount={cartDiscount}
                      currency={currency}
                      disabled={busy || !store}
                      check={checkCartDiscount}
                      onApply={(discount) => change((now) => ({ ...now, discount }))}
                    />
                  ) : null
                }
              />
            }
            currency={currency}
            total={total}
            blocked={blocked ?? offlineProblem}
            busy={busy}
            error={offlineProblem ?? (serverError && !approving ? shownError(serverError) : null)}
            sellAnyway={canSellAnyway && !offline ? sellAnyway : null}
            onSubmit={submit}
          />
          <ShortcutLegend />
        </div>
      </div>
      <OfflineQueue sellerId={user._id} outbox={outbox} currency={currency} />
      {approving && store ? (
        <ApprovalDialog
          reason={approvalReason}
          maxDiscountPercent={store.maxDiscountPercent}
          busy={busy}
          error={approvalError}
          onApprove={(approval) => send(approval, approving.overStock)}
          onCancel={() => {
            setApproving(null);
            complete.reset();
            toScanBox();
          }}
        />
      ) : null}
    </>
  );
}

/** The sale just made: its number, total and change, and its receipt one click away. */
function LastSale({ sale, role }: { sale: Sale; role: Role }) {
  const number = saleNumberLabel(sale.number);
  const { currency } = sale.store;
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
      <p>
        <span className="font-semibold">Sale {number} completed</span>: {formatMoney(sale.total, currency)}
        {sale.change !== null ? (
          <>
            , change <span className="font-semibold tabular-nums">{formatMoney(sale.change, currency)}</span>
          </>
        ) : null}
        .
      </p>
      <Link to={salePath(role, sale._id)} className={buttonClass('secondary', 'sm')}>
        Receipt {number}
      </Link>
    </div>
  );
}
