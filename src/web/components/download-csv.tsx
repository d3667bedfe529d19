import { useState } from 'react';
import { apiFile, errorMessage } from '../lib/api';
import { notify } from '../lib/notify';
import { buttonClass } from './button';

/** `path` with format=csv added to its query (any paging in it is ignored by the server). */
export function csvPath(path: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.delete('page');
  url.searchParams.delete('pageSize');
  url.searchParams.set('format', 'csv');
  return `${url.pathname}${url.search}`;
}

/**
 * "Download CSV" for a list or report: asks `path` (an API path with the view's filters) for its
 * CSV and saves it as `filename`. The server streams it; the browser keeps it until it is saved.
 */
export function DownloadCsvButton({
  path,
  filename,
  label = 'Download CSV',
}: {
  path: string;
  filename: string;
  /** The button's words, when the file is not simply the list (an import's failed rows). */
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const blob = await apiFile(csvPath(path));
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
    } catch (error) {
      notify.error(`The CSV could not be downloaded: ${errorMessage(error)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      className={buttonClass('secondary')}
      onClick={() => void download()}
      disabled={busy}
    >
      {busy ? 'Preparing CSV...' : label}
    </button>
  );
}
