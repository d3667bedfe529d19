import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  COUNT_MODES,
  type CountInput,
  type CountMode,
  CountQuantity,
  STOCKTAKE_STATUS_LABEL,
  type Stocktake,
  type StocktakeLine,
} from '../../../shared/stocktakes';
import { buttonClass } from '../../components/button';
import { BoxLabel, controlClass, SearchField, SelectField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { stocktakePath } from '../../lib/admin-paths';
import { errorMessage, refusedAs } from '../../lib/api';
import { countSheetPath, stocktakesPath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { useDocumentTitle } from '../../lib/use-document-title';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { LotDialog } from './lot-dialog';
import { countedText, lotText, StocktakeStatusBadge } from './stocktake-status';
import { LINES_PAGE_SIZE, stocktakeLinesQuery, stocktakeQuery, useCount } from './stocktakes-api';

const MODE_LABEL: Record<CountMode, string> = { set: 'Replace the count', add: 'Add to the count' };

/** What the last scans or typed counts answered, newest first. */
type Outcome = { id: number; tone: Tone; text: string };
/** counted; refused; asked (a lot to name, which the dialog asks for). */
type Tone = 'counted' | 'refused' | 'asked';
let nextOutcome = 1;

/** `/stocktakes/:id/count`: the count screen, for the counters and admins alike (DESIGN §18). */
export function CountPage() {
  const { id = '' } = useParams();
  const { role } = useSignedInUser();
  const answer = useQuery(stocktakeQuery(id));
  const stocktake = answer.data?.stocktake;
  const title = stocktake ? `Count ${stocktake.number}` : 'Count';
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title}>
        <Link to={countSheetPath(role, id)} className={buttonClass('secondary')}>
          Count sheet
        </Link>
        <Link
          to={role === 'admin' ? stocktakePath(id) : stocktakesPath(role)}
          className={buttonClass('secondary')}
        >
          {role === 'admin' ? 'Back to the stocktake' : 'Back to Stocktake'}
        </Link>
      </PageHeader>
      <LoadState
        query={answer}
        what="the stocktake"
        loading="Loading the stocktake..."
        missing="This stocktake does not exist."
      >
        {({ stocktake: loaded }) =>
          loaded.status === 'counting' ? (
            <CountView stocktake={loaded} />
          ) : (
            <p className="rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-700">
              {loaded.number} is {STOCKTAKE_STATUS_LABEL[loaded.status].toLowerCase()}: nothing more can be
              counted.
            </p>
          )
        }
      </LoadState>
    </>
  );
}

function CountView({ stocktake }: { stocktake: Stocktake }) {
  const count = useCount(stocktake._id);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [asking, setAsking] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const scanRef = useRef<HTMLInputElement>(null);

  const tell = (tone: Tone, text: string) =>
    setOutcomes((now) => [{ id: nextOutcome++, tone, text }, ...now].slice(0, 6));

  /**
   * Sends counts; answers null when they were taken, else the refusal's sentence. A scan of a
   * tracked product without its lot opens the lot dialog.
   */
  async function send(counts: CountInput[], scanned?: string): Promise<string | null> {
    setPending((n) => n + 1);
    try {
      // Each scan or typed count is its own act: two scans of one code both count.
      const answer = await count.mutateAsync({ counts, key: crypto.randomUUID() });
      for (const line of answer.counted) tell('counted', countedText(line));
      return null;
    } catch (error) {
      const sentence = errorMessage(error);
      if (scanned !== undefined && refusedAs(error, 'LOT_NEEDED')) {
        tell('asked', `${scanned}: ${sentence}`);
        setAsking(scanned);
      } else
        tell(
          'refused',
          // An out-of-scope refusal names the product already; any other names the code scanned.
          scanned === undefined || refusedAs(error, 'STOCKTAKE_OUT_OF_SCOPE')
            ? sentence
            : `${scanned}: ${sentence}`,
        );
      return sentence;
    } finally {
      setPending((n) => n - 1);
    }
  }

  return (
    <>
      <StocktakeFacts stocktake={stocktake} />
      {/* The scan box above the lines until the screen is wide enough for both side by side with the menu. */}
      <div className="grid gap-6 2xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] 2xl:items-start">
        <ScanPanel
          scanRef={scanRef}
          pending={pending}
          outcomes={outcomes}
          onScan={(code) => void send([{ product: code, quantity: 1, mode: 'add' }], code)}
        />
        <CountLines
          stocktake={stocktake}
          send={async (typed) => {
            // Once a typed count is in, the next scan goes to the scan box again.
            const refused = await send(typed);
            if (refused === null) scanRef.current?.focus();
            return refused;
          }}
        />
      </div>
      {asking !== null ? (
        <LotDialog
          stocktakeId={stocktake._id}
          code={asking}
          onClose={() => {
            setAsking(null);
            scanRef.current?.focus();
          }}
          onCounted={(line) => tell('counted', countedText(line))}
        />
      ) : null}
    </>
  );
}

function StocktakeFacts({ stocktake }: { stocktake: Stocktake }) {
  return (
    <dl className="mb-4 flex flex-wrap gap-x-6 gap-y-2 text-sm">
      <div className="flex items-center gap-2">
        <dt className="sr-only">Status</dt>
        <dd>
          <StocktakeStatusBadge status={stocktake.status} />
        </dd>
      </div>
      <div className="flex gap-1">
        <dt className="text-slate-500">Location</dt>
        <dd className="font-medium">{stocktake.location.name}</dd>
      </div>
      <div className="flex gap-1">
        <dt className="text-slate-500">Lines</dt>
        <dd className="font-medium tabular-nums">{stocktake.lines.toLocaleString('en-US')}</dd>
      </div>
      {stocktake.blind ? (
        <div>
          <dt className="sr-only">Kind</dt>
          <dd className="text-slate-600">Blind count</dd>
        </div>
      ) : null}
      {stocktake.note ? (
        <div className="basis-full">
          <dt className="sr-only">Note</dt>
          <dd className="whitespace-pre-line text-slate-700">{stocktake.note}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** Each tone dim and, for a moment after the answer arrives, bright. */
const FLASH: Record<Tone, [bright: string, dim: string, text: string]> = {
  counted: ['bg-green-300 ring-green-600', 'bg-green-50 ring-green-600/30', 'text-green-900'],
  refused: ['bg-red-300 ring-red-600', 'bg-red-50 ring-red-600/30', 'text-red-900'],
  asked: ['bg-amber-200 ring-amber-500', 'bg-amber-50 ring-amber-500/30', 'text-amber-950'],
};

/** A flash of colour when an answer arrives (no sound): green counted, red refused, amber a question. */
function Flash({ outcome }: { outcome: Outcome }) {
  const [bright, setBright] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setBright(false), 700);
    return () => clearTimeout(timer);
  }, []);
  const [on, off, text] = FLASH[outcome.tone];
  return (
    <p
      data-flash={outcome.tone}
      className={`rounded-md px-3 py-3 text-base font-semibold ring-2 transition-colors duration-500 ${bright ? on : off} ${text}`}
    >
      {outcome.text}
    </p>
  );
}

/**
 * The scan box: a hardware scanner types the code and Enter, each scan adds 1. The box keeps the
 * focus (it has it when the page opens and gets it back after the lot dialog), and clears itself
 * at once, so the next scan can follow while the last one's answer is on its way.
 */
function ScanPanel({
  scanRef,
  pending,
  outcomes,
  onScan,
}: {
  scanRef: RefObject<HTMLInputElement | null>;
  pending: number;
  outcomes: Outcome[];
  onScan: (code: string) => void;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [empty, setEmpty] = useState(false);
  const [latest, ...earlier] = outcomes;

  function submit(event: FormEvent) {
    event.preventDefault();
    const scanned = code.trim();
    setCode('');
    setEmpty(scanned === '');
    if (scanned) onScan(scanned);
    scanRef.current?.focus();
  }

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 2xl:sticky 2xl:top-4"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Scan
      </h2>
      <form onSubmit={submit} className="flex gap-2">
        <div className="min-w-0 flex-1">
          <BoxLabel htmlFor={id}>Scan or type a SKU or barcode</BoxLabel>
          <input
            ref={scanRef}
            id={id}
            // The count screen is for counting: the box is ready for the first scan.
            // biome-ignore lint/a11y/noAutofocus: the scanner types into it as soon as the page opens
            autoFocus
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="send"
            maxLength={100}
            aria-describedby={`${id}-hint`}
            className={`${controlClass()} min-h-12 text-lg`}
          />
        </div>
        <button type="submit" className={buttonClass('primary', 'md', 'min-h-12 self-end')}>
          Count 1
        </button>
      </form>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        Each scan adds 1 to its line.{' '}
        {empty ? <span className="text-red-700">Scan or type a code first.</span> : null}
      </p>
      <div role="status" aria-live="polite" className="space-y-2">
        {pending > 0 ? (
          <p className="text-sm text-slate-600">
            Counting {pending === 1 ? 'a scan' : `${pending} scans`}...
          </p>
        ) : null}
        {latest ? <Flash key={latest.id} outcome={latest} /> : null}
      </div>
      {earlier.length > 0 ? (
        <ul aria-label="Earlier scans" className="space-y-1 text-sm">
          {earlier.map((outcome) => (
            <li key={outcome.id} className={outcome.tone === 'refused' ? 'text-red-700' : 'text-slate-700'}>
              {outcome.text}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

const COUNTED_FILTER = { all: '', counted: 'true', uncounted: 'false' } as const;

/** The lines: searched, counted or not, each with a box for a typed quantity (set, or add). */
function CountLines({
  stocktake,
  send,
}: {
  stocktake: Stocktake;
  send: (counts: CountInput[]) => Promise<string | null>;
}) {
  const list = usePagedList<'counted'>();
  const counted = list.params.get('counted');
  const filter = counted === 'true' || counted === 'false' ? (counted as 'true' | 'false') : undefined;
  const [mode, setMode] = useState<CountMode>('set');
  const asked = { page: list.page, pageSize: LINES_PAGE_SIZE };
  const query = {
    ...(list.search ? { search: list.search } : {}),
    ...(filter ? { counted: filter } : {}),
    ...asked,
  };
  const lines = useQuery(stocktakeLinesQuery(stocktake._id, query));
  const page = serverPage(lines.data && { ...lines.data, rows: lines.data.lines }, asked);
  usePageInRange(list.page, page.pageCount, lines.isSuccess && !lines.isPlaceholderData, list.setPage);
  // In a blind stocktake the count screen shows no expected figure, whoever counts.
  const showExpected = !stocktake.blind;
  const columns = showExpected ? 5 : 4;
  const filtered = Boolean(list.search || filter);

  return (
    <section aria-label="Lines" className="min-w-0 space-y-3">
      <search aria-label="Find lines" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <SearchField
          label="Search lines"
          value={list.text}
          onChange={list.setText}
          placeholder="Name, SKU, barcode or lot..."
          maxLength={SEARCH_MAX_LENGTH}
        />
        <div className="w-full sm:w-44">
          <SelectField
            label="Show"
            value={filter ?? ''}
            onChange={(event) => list.setFilter('counted', event.target.value)}
          >
            <option value={COUNTED_FILTER.all}>Every line</option>
            <option value={COUNTED_FILTER.counted}>Counted</option>
            <option value={COUNTED_FILTER.uncounted}>Not counted yet</option>
          </SelectField>
        </div>
        <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <legend className="mb-1 block text-sm font-medium text-slate-700">Typed quantities</legend>
          {COUNT_MODES.map((one) => (
            <label key={one} className="flex min-h-9 items-center gap-2 text-slate-800">
              <input
                type="radio"
                name="count-mode"
                value={one}
                checked={mode === one}
                onChange={() => setMode(one)}
                className="size-4"
              />
              {MODE_LABEL[one]}
            </label>
          ))}
        </fieldset>
      </search>
      <Table caption={`Lines of ${stocktake.number}`} busy={lines.isPlaceholderData || list.typing}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Product</Th>
            <Th>Lot</Th>
            {showExpected ? <Th className="text-right">Expected</Th> : null}
            <Th className="text-right">Counted</Th>
            <Th>{mode === 'set' ? 'New count' : 'Add'}</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={lines}
            what="the lines"
            loading="Loading lines..."
            colSpan={columns}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={filtered ? 'No lines match.' : 'This stocktake has no lines.'}
          >
            {() =>
              page.rows.map((line) => (
                <LineRow key={line._id} line={line} mode={mode} showExpected={showExpected} send={send} />
              ))
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Lines" onPage={list.setPage} />
    </section>
  );
}

const STACKED_ROW = 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function LineRow({
  line,
  mode,
  showExpected,
  send,
}: {
  line: StocktakeLine;
  mode: CountMode;
  showExpected: boolean;
  send: (counts: CountInput[]) => Promise<string | null>;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = line.lot ? `${line.product.name}, lot ${line.lot.number}` : line.product.name;

  async function save(event: FormEvent) {
    event.preventDefault();
    const quantity = CountQuantity.safeParse(text.trim() === '' ? Number.NaN : Number(text));
    if (!quantity.success) {
      setError(
        text.trim() === '' ? 'Type the quantity.' : (quantity.error.issues[0]?.message ?? 'Not a count.'),
      );
      return;
    }
    setError(null);
    setBusy(true);
    const refused = await send([
      {
        product: line.product._id,
        ...(line.lot ? { lot: { number: line.lot.number } } : {}),
        quantity: quantity.data,
        mode,
      },
    ]);
    setBusy(false);
    setError(refused);
    if (refused === null) setText('');
  }

  const codes = [line.product.sku, line.product.barcode].filter(Boolean).join(' · ');
  return (
    <tr className={`align-top ${STACKED_ROW}`}>
      <Td className={`max-sm:col-span-2 ${STACKED_CELL}`}>
        <span className="block font-medium text-slate-900">{line.product.name}</span>
        {codes ? <span className="block text-xs text-slate-500">{codes}</span> : null}
      </Td>
      <Td className={`text-slate-700 max-sm:col-span-2 ${STACKED_CELL} ${line.lot ? '' : 'max-sm:hidden'}`}>
        {line.lot ? (
          <>
            <span className="sm:hidden text-xs text-slate-500">Lot </span>
            {lotText(line)}
          </>
        ) : (
          <span className="text-slate-400">—</span>
        )}
      </Td>
      {showExpected ? (
        <Td className={`text-right tabular-nums max-sm:text-left ${STACKED_CELL}`}>
          <span className="text-xs text-slate-500 sm:hidden">Expected </span>
          {line.expected ?? '—'}
        </Td>
      ) : null}
      <Td className={`text-right tabular-nums max-sm:text-left ${STACKED_CELL}`}>
        <span className="text-xs text-slate-500 sm:hidden">Counted </span>
        <span className="font-semibold">{line.counted ?? '—'}</span>
        {line.countedBy && line.countedAt ? (
          <span className="block text-xs font-normal text-slate-500">
            {line.countedBy.name}, <time dateTime={line.countedAt}>{formatDateTime(line.countedAt)}</time>
          </span>
        ) : null}
      </Td>
      <Td className={`max-sm:col-span-2 ${STACKED_CELL}`}>
        <form onSubmit={save} className="flex items-start gap-2">
          {/* A box of its own width: in a narrow column the row's flex would squeeze it to nothing. */}
          <div className="w-24 shrink-0">
            <input
              id={id}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-label={`${mode === 'set' ? 'New count' : 'Add'} for ${name}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className={`${controlClass(error ?? undefined)} text-right tabular-nums max-sm:min-h-11`}
            />
          </div>
          <button
            type="submit"
            className={buttonClass('secondary', 'sm', 'max-sm:min-h-11')}
            disabled={busy}
            aria-label={`Save the count of ${name}`}
          >
            {busy ? 'Saving...' : 'Save'}
          </button>
        </form>
        {error ? (
          <p id={`${id}-error`} className="mt-1 text-xs text-red-600">
            {error}
          </p>
        ) : null}
      </Td>
    </tr>
  );
}
