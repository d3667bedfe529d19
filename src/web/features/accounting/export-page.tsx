import { type FormEvent, useState } from 'react';
import {
  ACCOUNTING_EXPORTS,
  type AccountingExport,
  EXPORT_DATE_FORMATS,
  EXPORT_HEADERS,
  type ExportDateFormat,
} from '../../../shared/accounting';
import { buttonClass } from '../../components/button';
import { FormError, Options, SelectField } from '../../components/form-field';
import { apiFile, errorMessage } from '../../lib/api';
import { oneOf } from '../../lib/list-address';
import { notify } from '../../lib/notify';
import { accountingPaths } from './accounting-api';
import { AccountingPage } from './accounting-layout';
import { RangeFields, useRangeAddress } from './range-fields';

export const EXPORT_LABEL: Record<AccountingExport, string> = {
  journal: 'Journal (one row a line)',
  xero: 'Xero manual journal',
  quickbooks: 'QuickBooks Online journal',
};

export const DATE_FORMAT_LABEL: Record<ExportDateFormat, string> = {
  iso: 'YYYY-MM-DD',
  us: 'MM/DD/YYYY',
  eu: 'DD/MM/YYYY',
};

/** Saves a file the browser holds under `filename`. */
function save(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * Admin: the files for the accountant (DESIGN §20): the journal over a range as one row a line,
 * as Xero's manual-journal CSV or as QuickBooks Online's, with the dates written as chosen. The
 * choices stay in the address; Download asks the server for the file and saves it.
 */
export function ExportPage() {
  const address = useRangeAddress<'format' | 'dateFormat'>();
  const { range, rangeError, params } = address;
  const format = oneOf(ACCOUNTING_EXPORTS, params.get('format')) ?? 'journal';
  const dateFormat = oneOf(EXPORT_DATE_FORMATS, params.get('dateFormat')) ?? 'iso';
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function download(event: FormEvent) {
    event.preventDefault();
    if (rangeError || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const blob = await apiFile(accountingPaths.export({ ...range, format, dateFormat }));
      const days =
        range.from || range.to ? `-${range.from ?? 'start'}-to-${range.to ?? 'today'}` : '-month-to-date';
      save(blob, `${format}${days}.csv`);
      notify.success('The file is downloaded.');
    } catch (error) {
      setFailure(`The file could not be downloaded: ${errorMessage(error)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AccountingPage title="Export" tab="export">
      <RangeFields
        range={range}
        rangeError={rangeError}
        onDay={address.setFilter}
        onClear={address.clearRange}
      />
      <form
        noValidate
        onSubmit={(event) => void download(event)}
        aria-label="The accountant’s file"
        className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Format"
            value={format}
            onChange={(event) => address.setOption('format', event.target.value)}
          >
            <Options values={ACCOUNTING_EXPORTS} labels={EXPORT_LABEL} />
          </SelectField>
          <SelectField
            label="Date format"
            value={dateFormat}
            onChange={(event) => address.setOption('dateFormat', event.target.value)}
          >
            <Options values={EXPORT_DATE_FORMATS} labels={DATE_FORMAT_LABEL} />
          </SelectField>
        </div>
        <p className="text-sm text-slate-600">
          Its columns: <span className="text-slate-900">{EXPORT_HEADERS[format].join(', ')}</span>. The file
          balances by itself.
        </p>
        <FormError>{failure}</FormError>
        <div className="flex justify-end">
          <button type="submit" className={buttonClass('primary')} disabled={busy || Boolean(rangeError)}>
            {busy ? 'Preparing the file...' : 'Download'}
          </button>
        </div>
      </form>
    </AccountingPage>
  );
}
