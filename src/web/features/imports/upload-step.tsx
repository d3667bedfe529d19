import { type DragEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { CSV_MIME, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, XLSX_MIME } from '../../../shared/imports';
import { buttonClass } from '../../components/button';
import { productsImportPath } from '../../lib/admin-paths';
import { errorMessage } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { fileProblem, formatBytes, importContentType, SAMPLE_FILE_NAME, sampleCsvHref } from './import-file';
import { StepHeading, useSlow } from './import-parts';
import { useUploadImport } from './imports-api';
import { RecentImports } from './recent-imports';

const ACCEPT = `.csv,.xlsx,${CSV_MIME},${XLSX_MIME}`;

/** Step 1: a CSV or XLSX file chosen (or dropped), then sent as it is. */
export function UploadStep({ focus }: { focus: boolean }) {
  const navigate = useNavigate();
  const upload = useUploadImport();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const slow = useSlow(upload.isPending);
  const ids = useId();
  const problem = file ? fileProblem(file) : null;

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    upload.reset();
    setFile(chosen);
  };
  const send = () => {
    const type = file ? importContentType(file) : null;
    if (!file || !type || problem) return;
    upload.mutate(
      { file, type },
      {
        onSuccess: (answer) =>
          void navigate(productsImportPath(answer.import._id), { state: { stepFocus: true } }),
      },
    );
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  return (
    <>
      <section aria-labelledby={`${ids}-heading`} className="space-y-4">
        <StepHeading id={`${ids}-heading`} focus={focus}>
          Upload your products file
        </StepHeading>
        <p className="text-sm text-slate-600">
          A CSV or Excel (.xlsx) file with a header row, up to {formatBytes(MAX_IMPORT_BYTES)} and{' '}
          {formatCount(MAX_IMPORT_ROWS)} rows. Nothing is written until you have checked it.{' '}
          <a
            href={sampleCsvHref()}
            download={SAMPLE_FILE_NAME}
            className="font-medium text-indigo-700 underline hover:text-indigo-900"
          >
            Download a sample file
          </a>
        </p>
        <input
          ref={input}
          id={`${ids}-file`}
          type="file"
          accept={ACCEPT}
          aria-label="Products file"
          tabIndex={-1}
          className="sr-only"
          onChange={(event) => {
            choose(event.target.files?.[0]);
            // The same file chosen again (after fixing it) still counts as a choice.
            event.target.value = '';
          }}
        />
        <button
          type="button"
          onClick={() => input.current?.click()}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          disabled={upload.isPending}
          className={`flex w-full flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-10 text-center transition-colors ${
            dragging ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300 bg-white hover:bg-slate-50'
          }`}
        >
          <span className="text-base font-medium text-slate-900">
            {file ? 'Choose another file' : 'Choose a file'}
          </span>
          <span className="text-sm text-slate-600">or drop it here (.csv or .xlsx)</span>
        </button>

        {file ? (
          <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <p className="text-sm">
              <span className="font-medium break-all text-slate-900">{file.name}</span>{' '}
              <span className="text-slate-600">({formatBytes(file.size)})</span>
            </p>
            {problem ? (
              <p role="alert" className="text-sm text-red-700">
                {problem}
              </p>
            ) : null}
            {upload.isError ? (
              <div className="space-y-2 rounded-md bg-red-50 p-3 text-sm text-red-800">
                <p role="alert">The file could not be uploaded: {errorMessage(upload.error)}</p>
                <button type="button" className={buttonClass('secondary', 'sm')} onClick={send}>
                  Try again
                </button>
              </div>
            ) : null}
            {upload.isPending ? (
              <p role="status" className="text-sm text-slate-600">
                {slow ? 'Still uploading: a large file takes a little while.' : `Uploading ${file.name}...`}
              </p>
            ) : null}
            {!problem && !upload.isError ? (
              <button
                type="button"
                className={buttonClass('primary')}
                onClick={send}
                disabled={upload.isPending}
              >
                {upload.isPending ? 'Uploading...' : 'Upload and map columns'}
              </button>
            ) : null}
          </div>
        ) : null}
      </section>
      <RecentImports />
    </>
  );
}
