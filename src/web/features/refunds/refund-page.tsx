import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { centsNumber } from '../../../shared/money';
import { type Sale, saleNumberLabel, saleNumberSearched } from '../../../shared/sales';
import {
  PAYMENT_LABEL,
  type PaymentMethod,
  type RefundInput,
  SALE_METHOD_LABEL,
  TILL_MAX,
} from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { LoadFailed, Loading } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { refundPath, salePath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { idempotencyKeys } from '../../lib/idempotency';
import { useSignedInUser } from '../../lib/signed-in';
import { useMoney } from '../../lib/store-settings';
import { useCurrentSession } from '../till/current-session';
import { leftOf, lineRefundCents, refundMethods, saleByNumberQuery, useMakeRefund } from './refunds-api';

/** Why cash is not offered when this device has no open till session. */
export const OPEN_THE_TILL = 'Open the till to refund cash.';

/**
 * Refunds at the counter (DESIGN §13): the receipt is found by its number (a scanner types it
 * and presses Enter), then the units coming back are picked, with the money previewed by the
 * server's own rule. The number found lives in the address (?receipt=123), so the receipt page's
 * Refund opens this screen on its sale.
 */
export function RefundPage() {
  const [params, setParams] = useSearchParams();
  const wanted = saleNumberSearched(params.get('receipt') ?? undefined);
  const [text, setText] = useState(() => (wanted === undefined ? '' : saleNumberLabel(wanted)));
  const [formatError, setFormatError] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const found = useQuery({ ...saleByNumberQuery(wanted ?? 0), enabled: wanted !== undefined });

  const find = (event: FormEvent) => {
    event.preventDefault();
    const number = saleNumberSearched(text);
    if (number === undefined) {
      setFormatError('Type a receipt number, like S-000123 or 123.');
      inputRef.current?.focus();
      return;
    }
    setFormatError('');
    setText(saleNumberLabel(number));
    if (number === wanted) void found.refetch();
    else setParams({ receipt: String(number) });
  };

  // No receipt under that number: the box is ready for the next scan.
  const notFound = wanted !== undefined && found.data === null;
  useEffect(() => {
    if (notFound) inputRef.current?.select();
  }, [notFound]);

  return (
    <>
      <PageHeader title="Refunds" />
      <search aria-label="Find a receipt" className="mb-6 block">
        <form onSubmit={find} noValidate className="flex max-w-xl flex-wrap items-start gap-2">
          <div className="min-w-0 flex-1 basis-56">
            <TextField
              ref={inputRef}
              label="Receipt number"
              hint="Scan the receipt, or type its number (S-000123 or 123) and press Enter."
              error={formatError || undefined}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setFormatError('');
              }}
              autoComplete="off"
              spellCheck={false}
              maxLength={30}
              autoFocus
            />
          </div>
          <button type="submit" className={buttonClass('primary', 'md', 'mt-6')}>
            Find
          </button>
        </form>
      </search>
      <FoundSale wanted={wanted} found={found} onRetry={() => void found.refetch()} />
    </>
  );
}

function FoundSale({
  wanted,
  found,
  onRetry,
}: {
  wanted: number | undefined;
  found: { data: Sale | null | undefined; isError: boolean; isFetching: boolean; error: unknown };
  onRetry: () => void;
}) {
  if (wanted === undefined) {
    return (
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-8 text-center text-sm text-slate-600">
        Find the sale by the number on the customer's receipt.
      </p>
    );
  }
  const label = saleNumberLabel(wanted);
  if (found.data === undefined) {
    if (found.isError && !found.isFetching) {
      return (
        <LoadFailed
          message={`Receipt ${label} could not be loaded: ${errorMessage(found.error)}`}
          retry={onRetry}
        />
      );
    }
    return <Loading label={`Finding receipt ${label}...`} />;
  }
  if (found.data === null) {
    return <LoadFailed message={`No receipt ${label} was found. Check the number and try again.`} />;
  }
  return <SaleRefund key={found.data._id} sale={found.data} />;
}

/** On phones a line is a small card: the item, its figures, then the stepper and the money. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_FIGURE = 'max-sm:col-start-1 max-sm:p-0 max-sm:text-left max-sm:text-xs max-sm:text-slate-600';

/**
 * One sale's refund: every line with what was sold, what came back and what is left, a stepper
 * per line (at most what is left), restock or write off, how the money goes back, a reason, and
 * the total the server will give back.
 */
function SaleRefund({ sale }: { sale: Sale }) {
  const me = useSignedInUser();
  const money = useMoney();
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const till = useCurrentSession();
  const keys = useRef(idempotencyKeys()).current;
  const refund = useMakeRefund(sale._id, keys);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [restock, setRestock] = useState(true);
  const [chosen, setChosen] = useState<PaymentMethod | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState('');
  const number = saleNumberLabel(sale.number);
  const ids = useId();

  // The sale found takes the focus, so a screen reader reads it and Tab goes on to its lines.
  useEffect(() => headingRef.current?.focus(), []);

  const methods = refundMethods(sale);
  const offered = methods.filter((method) => method !== 'cash' || till.session !== null);
  const method = chosen !== null && offered.includes(chosen) ? chosen : (offered[0] ?? null);
  const picked = sale.lines
    .map((line) => ({ line, quantity: Math.min(quantities[line.order._id] ?? 0, leftOf(line)) }))
    .filter(({ quantity }) => quantity > 0);
  const units = picked.reduce((sum, { quantity }) => sum + quantity, 0);
  const total = centsNumber(
    picked.reduce((sum, { line, quantity }) => sum + lineRefundCents(line, quantity), 0n),
  );
  const anyLeft = sale.lines.some((line) => leftOf(line) > 0);
  const paidBy =
    sale.payments.length > 0
      ? [...new Set(sale.payments.map((payment) => PAYMENT_LABEL[payment.method]))].join(', ')
      : SALE_METHOD_LABEL[sale.payment.method];

  const setQuantity = (order: string, left: number, value: number) => {
    const quantity = Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 0), left) : 0;
    setQuantities((now) => ({ ...now, [order]: quantity }));
    setProblem('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (units === 0) {
      setProblem('Choose at least one unit to refund.');
      return;
    }
    if (method === null) {
      setProblem(
        methods.includes('cash')
          ? OPEN_THE_TILL
          : 'This sale cannot be refunded here: it names no way it was paid.',
      );
      return;
    }
    setProblem('');
    const input: RefundInput = {
      lines: picked.map(({ line, quantity }) => ({ order: line.order._id, quantity })),
      method,
      restock,
      ...(till.session ? { session: till.session._id } : {}),
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    };
    refund.mutate(input, {
      onSuccess: (answer) =>
        void navigate(refundPath(me.role, answer.refund._id), { state: { justRefunded: true } }),
      onError: () => {
        // A closed session or a race on the lines: read both again; the choice stays as it was.
        // (refetch asks even without a register chosen, so only when there is one.)
        if (till.registerId !== null) till.refetch();
      },
    });
  };

  const sentence = problem || (refund.isError ? errorMessage(refund.error) : '');

  return (
    <section aria-labelledby={`${ids}-sale`} className="space-y-6">
      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2
            id={`${ids}-sale`}
            ref={headingRef}
            tabIndex={-1}
            className="text-lg font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            Sale {number}
          </h2>
          <Link to={salePath(me.role, sale._id)} className="text-sm text-indigo-700 hover:underline">
            Receipt {number}
          </Link>
        </div>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
          <dt className="text-slate-600">Date</dt>
          <dd>
            <time dateTime={sale.createdAt}>{formatDateTime(sale.createdAt)}</time>
          </dd>
          <dt className="text-slate-600">Total</dt>
          <dd className="tabular-nums">{money(sale.total)}</dd>
          <dt className="text-slate-600">Seller</dt>
          <dd className="break-words">{sale.seller.name}</dd>
          <dt className="text-slate-600">Customer</dt>
          <dd className="break-words">{sale.customer?.name ?? '—'}</dd>
          <dt className="text-slate-600">Paid by</dt>
          <dd>{paidBy}</dd>
        </dl>
      </div>

      <form onSubmit={submit} noValidate aria-label={`Refund of sale ${number}`} className="space-y-6">
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-base font-semibold text-slate-900">What comes back</h3>
            {anyLeft ? (
              <div className="flex gap-2">
                <button
                  type="button"
                  className={buttonClass('secondary', 'sm')}
                  onClick={() => {
                    setQuantities(
                      Object.fromEntries(sale.lines.map((line) => [line.order._id, leftOf(line)])),
                    );
                    setProblem('');
                  }}
                >
                  Refund all
                </button>
                {units > 0 ? (
                  <button
                    type="button"
                    className={buttonClass('ghost', 'sm')}
                    onClick={() => setQuantities({})}
                  >
                    Clear
                  </button>
                ) : null}
              </div>
            ) : null}
          </div>
          <Table caption={`Lines of sale ${number} to refund`}>
            <thead className="max-sm:sr-only">
              <tr>
                <Th>Item</Th>
                <Th className="text-right">Sold</Th>
                <Th className="text-right">Refunded</Th>
                <Th className="text-right">Left</Th>
                <Th className="text-center">Refund</Th>
                <Th className="text-right">Money back</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {sale.lines.map((line) => {
                const left = leftOf(line);
                const quantity = Math.min(quantities[line.order._id] ?? 0, left);
                const name = line.product.name;
                return (
                  <tr key={line.order._id} className={STACKED_ROW}>
                    <Td className="break-words max-sm:col-span-2 max-sm:p-0 max-sm:font-medium">
                      {name}
                      <span className="block text-xs text-slate-500">
                        {money(line.total)} for {line.quantity}
                      </span>
                    </Td>
                    <Td className={`text-right tabular-nums ${STACKED_FIGURE}`}>
                      <span className="sm:hidden">Sold </span>
                      {line.quantity}
                    </Td>
                    <Td className={`text-right tabular-nums ${STACKED_FIGURE}`}>
                      <span className="sm:hidden">Refunded </span>
                      {line.returnedQuantity}
                    </Td>
                    <Td className={`text-right tabular-nums ${STACKED_FIGURE}`}>
                      <span className="sm:hidden">Left </span>
                      {left}
                    </Td>
                    <Td className="max-sm:col-start-2 max-sm:row-span-3 max-sm:row-start-2 max-sm:self-center max-sm:p-0">
                      {left > 0 ? (
                        <Stepper
                          name={name}
                          value={quantity}
                          max={left}
                          onChange={(value) => setQuantity(line.order._id, left, value)}
                        />
                      ) : (
                        <span className="block text-center text-sm text-slate-500">All refunded</span>
                      )}
                    </Td>
                    <Td className="text-right tabular-nums max-sm:col-span-2 max-sm:p-0 max-sm:text-sm">
                      <span className="sm:hidden">Money back </span>
                      {money(centsNumber(lineRefundCents(line, quantity)))}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </div>

        <div className="grid gap-6 md:grid-cols-2">
          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-semibold text-slate-900">The units</legend>
            <Choice name={`${ids}-restock`} checked={restock} onChange={() => setRestock(true)}>
              Back on the shelf <span className="text-slate-500">(restock)</span>
            </Choice>
            <Choice name={`${ids}-restock`} checked={!restock} onChange={() => setRestock(false)}>
              Write off <span className="text-slate-500">(damaged)</span>
            </Choice>
          </fieldset>

          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-semibold text-slate-900">Money back by</legend>
            {offered.map((one) => (
              <Choice
                key={one}
                name={`${ids}-method`}
                checked={method === one}
                onChange={() => {
                  setChosen(one);
                  setProblem('');
                }}
              >
                {PAYMENT_LABEL[one]}
                {one === 'storeCredit' && sale.customer ? (
                  <span className="text-slate-500"> for {sale.customer.name}</span>
                ) : null}
              </Choice>
            ))}
            {methods.length === 0 ? (
              <p className="text-sm text-slate-600">
                This sale names no way it was paid, so it cannot be refunded here.
              </p>
            ) : null}
            {methods.includes('cash') && till.session === null ? (
              till.isLoading ? (
                <Loading label="Checking the till..." className="py-1" />
              ) : till.isError ? (
                <div className="flex flex-wrap items-center gap-2 text-sm text-red-700">
                  <p role="alert">The till could not be checked, so cash is not offered.</p>
                  <button type="button" className={buttonClass('secondary', 'sm')} onClick={till.refetch}>
                    Check again
                  </button>
                </div>
              ) : (
                <p className="text-sm text-slate-600">Cash: {OPEN_THE_TILL}</p>
              )
            ) : null}
          </fieldset>
        </div>

        <div className="max-w-xl">
          <TextField
            label="Reason (optional)"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={TILL_MAX.reason}
            placeholder="Wrong size, damaged, changed mind..."
          />
        </div>

        <div className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center sm:justify-between">
          <output aria-label="Money back" className="block text-sm text-slate-700">
            Money back{units > 0 ? ` for ${units} ${units === 1 ? 'unit' : 'units'}` : ''}:{' '}
            <span className="text-lg font-bold text-slate-900 tabular-nums">{money(total)}</span>
          </output>
          <button type="submit" className={buttonClass('primary')} disabled={refund.isPending}>
            {refund.isPending ? 'Refunding...' : `Refund ${money(total)}`}
          </button>
        </div>
        <FormError>{sentence}</FormError>
      </form>
    </section>
  );
}

/** − / number / + for one line's units; the number may be typed, kept between 0 and `max`. */
function Stepper({
  name,
  value,
  max,
  onChange,
}: {
  name: string;
  value: number;
  max: number;
  onChange: (value: number) => void;
}) {
  return (
    <div className="flex items-center justify-center gap-1">
      <button
        type="button"
        className={buttonClass('secondary', 'sm', 'w-9')}
        aria-label={`One less ${name}`}
        onClick={() => onChange(value - 1)}
        disabled={value <= 0}
      >
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        step={1}
        value={value}
        aria-label={`Units of ${name} to refund (at most ${max})`}
        onChange={(event) => onChange(event.target.valueAsNumber)}
        onFocus={(event) => event.target.select()}
        className="w-16 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-center text-sm tabular-nums"
      />
      <button
        type="button"
        className={buttonClass('secondary', 'sm', 'w-9')}
        aria-label={`One more ${name}`}
        onClick={() => onChange(value + 1)}
        disabled={value >= max}
      >
        +
      </button>
    </div>
  );
}

function Choice({
  name,
  checked,
  onChange,
  children,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50">
      <input type="radio" name={name} checked={checked} onChange={onChange} className="accent-indigo-600" />
      <span>{children}</span>
    </label>
  );
}
