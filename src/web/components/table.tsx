import type { ReactNode } from 'react';
import { PHONE, useMediaQuery } from '../lib/use-media-query';

/**
 * A scrollable table with a caption for assistive technology. `busy` while another page or search
 * loads: the rows shown stay until the new ones arrive, dimmed if that takes a moment. The box is
 * `relative` so that what is positioned inside it (an `sr-only` label of a box in a cell) scrolls
 * with the table: placed against the page instead, a label in a column past the phone's edge made
 * the whole page wider than the screen.
 */
export function Table({
  caption,
  busy = false,
  children,
}: {
  caption: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table
        aria-busy={busy || undefined}
        className={`min-w-full divide-y divide-slate-200 text-left text-sm transition-opacity ${busy ? 'opacity-60 delay-200' : ''}`}
      >
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/**
 * The actions column stays in view at the table's right edge while the others scroll beneath
 * it, at every width: on a laptop (768–1440 px beside the menu) a wide table put Return and
 * Delete past the edge, reachable only by the scrollbar at the table's bottom.
 */
const STICKY_END = 'sticky right-0 shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.25)]';

type CellProps = { children?: ReactNode; className?: string; stickyEnd?: boolean };

export function Th({ children, className = '', stickyEnd = false }: CellProps) {
  return (
    <th
      scope="col"
      className={`whitespace-nowrap bg-slate-50 px-3 py-3 text-xs font-semibold tracking-wide text-slate-600 uppercase sm:px-4 ${stickyEnd ? STICKY_END : ''} ${className}`}
    >
      {children}
    </th>
  );
}

export function Td({ children, className = '', stickyEnd = false }: CellProps) {
  return (
    <td
      className={`px-3 py-2.5 text-slate-800 sm:px-4 sm:py-3 ${stickyEnd ? `${STICKY_END} bg-white` : ''} ${className}`}
    >
      {children}
    </td>
  );
}

/** One full-width row for the loading and empty states. */
export function TableMessage({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-8 text-left text-sm text-slate-500 sm:text-center">
        {children}
      </td>
    </tr>
  );
}

/**
 * A column header that sorts the table by its column (`field`; `-field` is descending): the first
 * press sorts ascending, the next descending. `aria-sort` says how the shown rows are ordered.
 */
export function SortableTh({
  children,
  field,
  sort,
  onSort,
  className = '',
}: {
  children: ReactNode;
  field: string;
  /** The table's sort now, e.g. `name` or `-price`. */
  sort: string;
  onSort: (sort: string) => void;
  className?: string;
}) {
  const direction = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined;
  return (
    <th
      scope="col"
      aria-sort={direction}
      className={`whitespace-nowrap bg-slate-50 px-3 py-3 text-xs font-semibold tracking-wide text-slate-600 uppercase sm:px-4 ${className}`}
    >
      <button
        type="button"
        onClick={() => onSort(direction === 'ascending' ? `-${field}` : field)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-slate-900"
      >
        {children}
        <svg
          aria-hidden="true"
          viewBox="0 0 12 12"
          className={`size-3 fill-current ${direction ? 'text-indigo-600' : 'text-slate-300'}`}
        >
          <path d={direction === 'descending' ? 'M2 4h8L6 9z' : 'M2 8h8L6 3z'} />
        </svg>
      </button>
    </th>
  );
}

/**
 * Whether lists show as cards: on phones (up to 640 px) a table's columns do not fit, and the
 * price or stock scrolled out of sight behind the actions. Wider, the tables stay.
 */
export function useCardLayout(): boolean {
  return useMediaQuery(PHONE);
}

/** A table's rows as cards, one list item each, named like the table. */
export function CardList({
  caption,
  busy = false,
  children,
}: {
  caption: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <ul
      aria-label={caption}
      aria-busy={busy || undefined}
      className={`space-y-3 transition-opacity ${busy ? 'opacity-60 delay-200' : ''}`}
    >
      {children}
    </ul>
  );
}

/** One row as a card: its title first, then its fields, then its actions. */
export function Card({ children }: { children: ReactNode }) {
  return <li className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">{children}</li>;
}

/** A card's fields as a description list, two to a line. */
export function CardFields({ children }: { children: ReactNode }) {
  return <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">{children}</dl>;
}

/** One field of a card, labelled like the table's column; `wide` takes the whole line. */
export function CardField({
  label,
  wide = false,
  children,
}: {
  label: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`min-w-0 ${wide ? 'col-span-2' : ''}`}>
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** A card's actions, full-size buttons that a finger can hit. */
export function CardActions({ children }: { children: ReactNode }) {
  return <div className="mt-4 flex flex-wrap items-center gap-2">{children}</div>;
}

/** Touch-sized buttons in a card (44 px high). */
export const CARD_BUTTON = 'min-h-11 px-4';
