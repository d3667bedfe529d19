import type { ReactNode } from 'react';

/** A scrollable table with a caption for assistive technology. */
export function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <th
      scope="col"
      className={`whitespace-nowrap bg-slate-50 px-3 py-3 text-xs sm:px-4 font-semibold tracking-wide text-slate-600 uppercase ${className}`}
    >
      {children}
    </th>
  );
}

export function Td({ children, className = '' }: { children?: ReactNode; className?: string }) {
  return <td className={`px-3 py-2.5 text-slate-800 sm:px-4 sm:py-3 ${className}`}>{children}</td>;
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
