import { useRef } from 'react';
import type { Page } from '../lib/paging';
import { buttonClass } from './button';

/** Previous / Next under a long table; shown only when there is more than one page. */
export function Pager({
  page,
  label,
  onPage,
}: {
  page: Page<unknown>;
  label: string;
  onPage: (page: number) => void;
}) {
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  if (page.pageCount <= 1) return null;
  const go = (to: number) => {
    onPage(to);
    window.scrollTo({ top: 0 });
    // The button pressed is disabled at either end; keep the keyboard focus on the other one.
    if (to <= 1) next.current?.focus();
    else if (to >= page.pageCount) previous.current?.focus();
  };
  const first = page.offset + 1;
  const last = page.offset + page.rows.length;
  return (
    <nav
      aria-label={`${label} pages`}
      className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm"
    >
      <p className="text-slate-600" aria-live="polite">
        Showing {first}–{last} of {page.total.toLocaleString('en-US')}
        {page.totalCapped ? '+' : ''}
      </p>
      <div className="flex items-center gap-2">
        <button
          ref={previous}
          type="button"
          className={buttonClass('secondary', 'sm')}
          disabled={page.page <= 1}
          onClick={() => go(page.page - 1)}
        >
          Previous
        </button>
        <span className="text-slate-600">
          Page {page.page} of {page.pageCount}
        </span>
        <button
          ref={next}
          type="button"
          className={buttonClass('secondary', 'sm')}
          disabled={page.page >= page.pageCount}
          onClick={() => go(page.page + 1)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
