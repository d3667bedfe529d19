import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import type { Import } from '../../../shared/imports';
import { buttonClass } from '../../components/button';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { PRODUCTS_PATH } from '../../lib/admin-paths';
import { ApplyingStep, DoneStep } from './apply-step';
import { CheckResult } from './check-result';
import { useSlow } from './import-parts';
import { importQuery } from './imports-api';
import { MappingStep } from './mapping-step';
import { UploadStep } from './upload-step';

type Step = 'upload' | 'mapping' | 'result' | 'applying' | 'done';

const STEPS = ['Upload', 'Match columns', 'Check', 'Import'] as const;
const STEP_NUMBER: Record<Step, number> = { upload: 0, mapping: 1, result: 2, applying: 3, done: 3 };

/**
 * The step an import is at follows its status; a checked import goes back to its mapping when the
 * address says so (`?step=mapping`, "Change mapping"), so Back returns to the result.
 */
function stepOf(item: Import, params: URLSearchParams): Step {
  switch (item.status) {
    case 'uploaded':
      return 'mapping';
    case 'checked':
      return params.get('step') === 'mapping' ? 'mapping' : 'result';
    case 'applying':
      return 'applying';
    case 'applied':
    case 'failed':
      return 'done';
  }
}

/**
 * Whether a step's heading takes the focus: once the reader has moved from one step to another
 * (here, or by the upload leading to the import's own address), not when the page first opens.
 */
function useStepFocus(step: Step | null): boolean {
  const location = useLocation();
  const first = useRef<Step | null>(null);
  const moved = useRef(Boolean((location.state as { stepFocus?: boolean } | null)?.stepFocus));
  if (step !== null) {
    if (first.current === null) first.current = step;
    else if (step !== first.current) moved.current = true;
  }
  return moved.current;
}

function StepList({ step }: { step: Step }) {
  const current = STEP_NUMBER[step];
  return (
    <ol aria-label="Steps of the import" className="mb-6 flex flex-wrap gap-x-4 gap-y-2 text-sm">
      {STEPS.map((label, index) => (
        <li
          key={label}
          aria-current={index === current ? 'step' : undefined}
          className={`flex items-center gap-2 ${index === current ? 'font-semibold text-indigo-700' : index < current ? 'text-slate-700' : 'text-slate-400'}`}
        >
          <span
            aria-hidden="true"
            className={`inline-flex size-6 items-center justify-center rounded-full text-xs ${index === current ? 'bg-indigo-600 text-white' : index < current ? 'bg-slate-200 text-slate-700' : 'border border-slate-300'}`}
          >
            {index + 1}
          </span>
          {label}
          {index < current ? <span className="sr-only"> (done)</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** Admin: Products → Import (DESIGN §14): upload, match columns, check, import. */
export function ImportPage() {
  const { id } = useParams();
  return (
    <>
      <PageHeader title="Import products">
        <Link to={PRODUCTS_PATH} className={buttonClass('secondary')}>
          Back to products
        </Link>
      </PageHeader>
      {id ? <ImportOf id={id} /> : <Upload />}
    </>
  );
}

function Upload() {
  const focus = useStepFocus('upload');
  return (
    <>
      <StepList step="upload" />
      <UploadStep focus={focus} />
    </>
  );
}

/** One import, at the step its status says; a reload comes back to the same step. */
function ImportOf({ id }: { id: string }) {
  const query = useQuery(importQuery(id));
  const [params, setParams] = useSearchParams();
  const item = query.data?.import;
  const step = item ? stepOf(item, params) : null;
  const focus = useStepFocus(step);
  const slow = useSlow(query.isPending);

  const changeMapping = () => setParams({ step: 'mapping' });
  const checked = () => setParams({}, { replace: true });

  return (
    <LoadState
      query={query}
      what="the import"
      missing="This import does not exist: upload the file again."
      loading={slow ? 'Still loading the import...' : 'Loading the import...'}
    >
      {({ import: loaded }) => {
        const at = stepOf(loaded, params);
        return (
          <>
            <StepList step={at} />
            {at === 'mapping' ? (
              // A new check starts from what the import holds now.
              <MappingStep
                key={`${loaded._id} ${loaded.checkedAt ?? ''}`}
                item={loaded}
                focus={focus}
                onChecked={checked}
              />
            ) : at === 'result' ? (
              <CheckResult item={loaded} focus={focus} onChangeMapping={changeMapping} />
            ) : at === 'applying' ? (
              <ApplyingStep item={loaded} focus={focus} refreshError={query.isError ? query.error : null} />
            ) : (
              <DoneStep item={loaded} focus={focus} />
            )}
          </>
        );
      }}
    </LoadState>
  );
}
