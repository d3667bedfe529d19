import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { centsNumber, toCents } from '../../../shared/money';
import { taxRateLabel } from '../../../shared/store';
import {
  PAYMENT_LABEL,
  type RegisterSession,
  type SessionReport,
  sessionNumberLabel,
} from '../../../shared/till';
import { buttonClass } from '../../components/button';
import { JournalLink } from '../../components/journal-link';
import { LoadState } from '../../components/load-state';
import { sessionsPath } from '../../lib/area-paths';
import { formatDateTime } from '../../lib/format';
import { homePathFor } from '../../lib/role-home';
import { useSignedInUser } from '../../lib/signed-in';
import { useMoney } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DifferenceText } from './difference';
import { sessionQuery } from './till-api';

const QUIET = 'text-slate-600 print:text-slate-900';
const SECTION = 'grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 border-b border-dashed border-slate-400 py-3';

/**
 * A till session's report (DESIGN §13): the X report while the session is open (live: read again
 * on every visit), the Z report once it is closed. Prints like a receipt: the report alone, 80 mm
 * wide at most, on the receipt's page type (styles.css), the buttons hidden on paper.
 */
export function SessionReportPage() {
  const { id = '' } = useParams();
  const user = useSignedInUser();
  const answer = useQuery(sessionQuery(id));
  const shown = answer.data;
  const kind = shown ? (shown.session.status === 'open' ? 'X report' : 'Z report') : 'Till report';
  useDocumentTitle(
    shown ? `${kind} ${shown.session.register.name} ${sessionNumberLabel(shown.session.number)}` : kind,
  );
  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2 print:hidden">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => window.print()}
          disabled={!shown}
        >
          Print
        </button>
        <Link to={sessionsPath(user.role)} className={buttonClass('secondary')}>
          Till sessions
        </Link>
        <Link to={`${homePathFor(user.role)}/sales/new`} className={buttonClass('secondary')}>
          Counter
        </Link>
        {shown ? <JournalLink sourceId={shown.session._id} /> : null}
      </div>
      <LoadState
        query={answer}
        what="the till report"
        loading="Loading the till report..."
        missing="This till session does not exist, or it is not one of yours."
      >
        {(data) => <Report session={data.session} report={data.report} />}
      </LoadState>
    </>
  );
}

function Row({
  label,
  children,
  strong = false,
}: {
  label: ReactNode;
  children: ReactNode;
  strong?: boolean;
}) {
  return (
    <>
      <dt className={strong ? 'font-sans font-bold' : ''}>{label}</dt>
      <dd className={`text-right tabular-nums ${strong ? 'font-sans font-bold' : ''}`}>{children}</dd>
    </>
  );
}

/** Every figure of the report: who and when, sales and refunds, payments, the drawer, discounts and taxes. */
export function Report({ session, report }: { session: RegisterSession; report: SessionReport }) {
  const money = useMoney();
  const open = session.status === 'open';
  const title = `${open ? 'X report' : 'Z report'} · ${session.register.name} · session ${sessionNumberLabel(session.number)}`;
  return (
    <article
      aria-labelledby="till-report-title"
      className="mx-auto w-full max-w-sm bg-white p-5 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-200 print:mx-0 print:w-full print:max-w-[80mm] print:p-0 print:text-[11px] print:shadow-none print:ring-0 print:[page:receipt]"
    >
      <header className="border-b border-dashed border-slate-400 pb-3 text-center">
        <h1 id="till-report-title" className="font-sans text-base font-semibold">
          {title}
        </h1>
        <p className={`mt-1 ${QUIET}`}>
          {open ? 'Session open: figures so far.' : 'Session closed: final figures.'}
        </p>
      </header>
      <dl aria-label="Session" className={SECTION}>
        <Row label="Register">{session.register.name}</Row>
        <Row label="Session">{sessionNumberLabel(session.number)}</Row>
        <Row label="Opened by">{session.openedBy.name}</Row>
        <Row label="Opened at">
          <time dateTime={session.openedAt}>{formatDateTime(session.openedAt)}</time>
        </Row>
        <Row label="Closed by">{session.closedBy?.name ?? '—'}</Row>
        <Row label="Closed at">
          {session.closedAt ? (
            <time dateTime={session.closedAt}>{formatDateTime(session.closedAt)}</time>
          ) : (
            '—'
          )}
        </Row>
        <Row label="Opening float">{money(session.openingFloat)}</Row>
      </dl>
      <dl aria-label="Sales and refunds" className={SECTION}>
        <Row label={`Sales (${report.sales.count})`}>{money(report.sales.total)}</Row>
        <Row label={`Refunds (${report.refunds.count})`}>{money(report.refunds.total)}</Row>
        <Row label="Discounts">{money(report.discount)}</Row>
      </dl>
      <table className="w-full border-collapse border-b border-dashed border-slate-400 text-left">
        <caption className="pt-3 text-left font-sans font-semibold">Payments by method</caption>
        <thead>
          <tr className={`text-xs print:text-[10px] ${QUIET}`}>
            <th scope="col" className="py-1 font-semibold">
              Method
            </th>
            <th scope="col" className="py-1 text-right font-semibold">
              In
            </th>
            <th scope="col" className="py-1 pl-3 text-right font-semibold">
              Out
            </th>
          </tr>
        </thead>
        <tbody>
          {report.payments.map((payment) => (
            <tr key={payment.method}>
              <th scope="row" className="py-0.5 text-left font-normal">
                {PAYMENT_LABEL[payment.method]}
              </th>
              <td className="py-0.5 text-right tabular-nums">{money(payment.in)}</td>
              <td className="py-0.5 pl-3 text-right tabular-nums">{money(payment.out)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl aria-label="Cash drawer" className={SECTION}>
        <Row label="Opening float">{money(session.openingFloat)}</Row>
        <Row label="Cash in">{money(report.cashIn)}</Row>
        <Row label="Cash out">{money(report.cashOut)}</Row>
        <Row label="Expected cash" strong>
          {money(report.expectedCash)}
        </Row>
        <Row label="Counted cash">
          {report.countedCash === null ? 'Not counted yet' : money(report.countedCash)}
        </Row>
        <Row label="Difference">
          {report.difference === null ? '—' : <DifferenceText difference={report.difference} />}
        </Row>
      </dl>
      <TaxTable taxes={report.taxes} />
      {session.note ? (
        <p className={`pt-3 break-words whitespace-pre-line ${QUIET}`}>
          <span className="font-semibold">Note: </span>
          {session.note}
        </p>
      ) : null}
    </article>
  );
}

/** The session's tax by rate (DESIGN §13): each rate's net and tax, and a Total row of their sums, in cents. */
function TaxTable({ taxes }: { taxes: SessionReport['taxes'] }) {
  const money = useMoney();
  const sum = (pick: (tax: SessionReport['taxes'][number]) => number) =>
    centsNumber(taxes.reduce((cents, tax) => cents + toCents(pick(tax)), 0n));
  return (
    <table className="w-full border-collapse border-b border-dashed border-slate-400 text-left">
      <caption className="pt-3 text-left font-sans font-semibold">Tax by rate</caption>
      <thead>
        <tr className={`text-xs print:text-[10px] ${QUIET}`}>
          <th scope="col" className="py-1 font-semibold">
            Rate
          </th>
          <th scope="col" className="py-1 text-right font-semibold">
            Net
          </th>
          <th scope="col" className="py-1 pl-3 text-right font-semibold">
            Tax
          </th>
        </tr>
      </thead>
      <tbody>
        {taxes.length === 0 ? (
          <tr>
            <td colSpan={3} className={`py-0.5 ${QUIET}`}>
              No tax in this session
            </td>
          </tr>
        ) : (
          taxes.map((tax) => (
            <tr key={`${tax.name} ${tax.rate}`}>
              <th scope="row" className="py-0.5 text-left font-normal">
                {taxRateLabel(tax)}
              </th>
              <td className="py-0.5 text-right tabular-nums">{money(tax.base)}</td>
              <td className="py-0.5 pl-3 text-right tabular-nums">{money(tax.tax)}</td>
            </tr>
          ))
        )}
      </tbody>
      {taxes.length > 0 ? (
        <tfoot className="border-t border-slate-300">
          <tr className="font-sans font-bold">
            <th scope="row" className="py-1 text-left">
              Total
            </th>
            <td className="py-1 text-right tabular-nums">{money(sum((tax) => tax.base))}</td>
            <td className="py-1 pl-3 text-right tabular-nums">{money(sum((tax) => tax.tax))}</td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}
