import { useState } from 'react';
import { Link } from 'react-router';
import type { JournalEntry, JournalLine } from '../../../shared/accounting';
import { centsNumber, toCents } from '../../../shared/money';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError } from '../../components/form-field';
import { journalEntryPath, ledgerPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useKeys, useReverseEntry } from './accounting-api';
import { NUMBER, useSide } from './accounting-parts';
import { SOURCE_LABEL, sourceLink } from './accounting-words';

/** What a line concerns besides its account: the location, register, customer, supplier, tax rate. */
function lineDetails(line: JournalLine): string[] {
  return [
    line.location?.name,
    line.register?.name,
    line.customer ? `Customer ${line.customer.name}` : undefined,
    line.supplier ? `Supplier ${line.supplier.name}` : undefined,
    line.taxRate ? `Tax ${line.taxRate}` : undefined,
  ].filter((detail): detail is string => Boolean(detail));
}

/** The debit and credit columns keep one width, so the entries of a list line up. */
const SIDE = 'w-24 sm:w-40';

const sum = (lines: readonly JournalLine[], side: 'debit' | 'credit') =>
  centsNumber(lines.reduce((total, line) => total + toCents(line[side]), 0n));

/**
 * One journal entry (DESIGN §19): its number, date, memo and source (a link to the document's
 * screen where the app has one), each line's account (a link to its ledger) and what it concerns,
 * its debit or credit, the totals, the entry it reverses or the one reversing it, and Reverse.
 */
export function EntryCard({
  entry,
  linked = true,
}: {
  entry: JournalEntry;
  /** Its number links to its own screen (not on that screen). */
  linked?: boolean;
}) {
  const side = useSide();
  const source = sourceLink(entry);
  const kind = SOURCE_LABEL[entry.source.kind];
  // The words before the source's link, unless its link says them already ("Sale S-000012").
  const lead =
    entry.source.kind === 'reversal'
      ? 'Reverses '
      : !source
        ? kind
        : source.label.startsWith(kind)
          ? null
          : `${kind}: `;
  const [reversing, setReversing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reverse = useReverseEntry();
  const keys = useKeys();

  function confirmReverse() {
    setRefusal(null);
    const key = keys.keyFor({ id: entry._id });
    reverse.mutate(
      { id: entry._id, key },
      {
        onSuccess: ({ entry: reversal }) => {
          keys.settled();
          notify.success(`${entry.number} reversed by ${reversal.number}.`, {
            to: journalEntryPath(reversal._id),
            label: reversal.number,
          });
        },
        onError: (error) => {
          keys.settled(error);
          setRefusal(errorMessage(error));
        },
        onSettled: () => setReversing(false),
      },
    );
  }

  return (
    <article
      aria-labelledby={`entry-${entry._id}`}
      className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 border-b border-slate-100 p-3 sm:p-4">
        <div className="min-w-0">
          <h2 id={`entry-${entry._id}`} className="text-base font-semibold text-slate-900">
            {linked ? (
              <Link to={journalEntryPath(entry._id)} className="text-indigo-700 hover:underline">
                {entry.number}
              </Link>
            ) : (
              entry.number
            )}
            <span className="ml-2 text-sm font-normal text-slate-600">
              <time dateTime={entry.date}>{formatDate(entry.date)}</time>
            </span>
          </h2>
          <p className="mt-0.5 break-words text-sm text-slate-800">{entry.memo}</p>
          <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
            <span>
              {lead}
              {source ? (
                <Link to={source.to} className="font-medium text-indigo-700 hover:underline">
                  {source.label}
                </Link>
              ) : null}
            </span>
            {entry.reversedBy ? (
              <span>
                Reversed by{' '}
                <Link
                  to={journalEntryPath(entry.reversedBy)}
                  className="font-medium text-indigo-700 hover:underline"
                >
                  its reversal
                </Link>
              </span>
            ) : null}
            <span>
              Posted <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
            </span>
          </p>
        </div>
        {entry.reversedBy ? null : (
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            aria-label={`Reverse ${entry.number}`}
            onClick={() => setReversing(true)}
          >
            Reverse
          </button>
        )}
      </header>
      {refusal ? (
        <div className="px-3 pt-3 sm:px-4">
          <FormError>{refusal}</FormError>
        </div>
      ) : null}
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Lines of {entry.number}</caption>
          <thead>
            <tr className="text-xs text-slate-500">
              <th scope="col" className="px-3 pt-2 pb-1 font-medium sm:px-4">
                Account
              </th>
              <th scope="col" className={`${SIDE} px-3 pt-2 pb-1 text-right font-medium sm:px-4`}>
                Debit
              </th>
              <th scope="col" className={`${SIDE} px-3 pt-2 pb-1 text-right font-medium sm:px-4`}>
                Credit
              </th>
            </tr>
          </thead>
          <tbody>
            {entry.lines.map((line, index) => {
              const details = lineDetails(line);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: an entry's lines never change order
                <tr key={index} className="align-top">
                  <td className="px-3 py-1.5 sm:px-4">
                    <Link
                      to={ledgerPath(line.account._id)}
                      className="text-slate-900 hover:text-indigo-700 hover:underline"
                    >
                      <span className="font-mono text-xs text-slate-600">{line.account.code}</span>{' '}
                      {line.account.name}
                    </Link>
                    {details.length > 0 ? (
                      <span className="block text-xs text-slate-500">{details.join(' · ')}</span>
                    ) : null}
                  </td>
                  <td className={`px-3 py-1.5 sm:px-4 ${NUMBER}`}>{side(line.debit)}</td>
                  <td className={`px-3 py-1.5 sm:px-4 ${NUMBER}`}>{side(line.credit)}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr className="border-t border-slate-100 font-medium text-slate-700">
              <th scope="row" className="px-3 py-2 text-left text-xs font-medium text-slate-500 sm:px-4">
                Total
              </th>
              <td className={`px-3 py-2 sm:px-4 ${NUMBER}`}>{side(sum(entry.lines, 'debit'))}</td>
              <td className={`px-3 py-2 sm:px-4 ${NUMBER}`}>{side(sum(entry.lines, 'credit'))}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      {reversing ? (
        <ConfirmDialog
          title={`Reverse ${entry.number}?`}
          message={`A new entry dated today puts each of its ${entry.lines.length} lines on the other side. An entry is reversed once; neither is ever deleted.`}
          confirmLabel="Reverse"
          busyLabel="Reversing..."
          busy={reverse.isPending}
          onConfirm={confirmReverse}
          onCancel={() => setReversing(false)}
        />
      ) : null}
    </article>
  );
}
