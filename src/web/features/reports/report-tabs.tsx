import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { REPORT_TABS, type ReportTab, TAB_LABEL } from './report-range';

const tabId = (tab: ReportTab) => `report-tab-${tab}`;
const PANEL_ID = 'report-panel';

/**
 * The reports as tabs (the WAI-ARIA tabs pattern): one tab stop, arrow keys, Home and End move
 * between them and show the one reached. On phones the row scrolls sideways.
 */
export function ReportTabs({
  current,
  onChange,
  children,
}: {
  current: ReportTab;
  onChange: (tab: ReportTab) => void;
  /** The current tab's panel. */
  children: ReactNode;
}) {
  const buttons = useRef(new Map<ReportTab, HTMLButtonElement>());
  function move(event: KeyboardEvent) {
    const at = REPORT_TABS.indexOf(current);
    const last = REPORT_TABS.length - 1;
    const to = {
      ArrowRight: at === last ? 0 : at + 1,
      ArrowLeft: at === 0 ? last : at - 1,
      Home: 0,
      End: last,
    }[event.key];
    const tab = to === undefined ? undefined : REPORT_TABS[to];
    if (!tab) return;
    event.preventDefault();
    onChange(tab);
    buttons.current.get(tab)?.focus();
  }
  return (
    <>
      <div
        role="tablist"
        aria-label="Reports"
        onKeyDown={move}
        className="-mx-3 mb-5 flex overflow-x-auto border-b border-slate-200 px-3 sm:mx-0 sm:px-0"
      >
        {REPORT_TABS.map((tab) => {
          const selected = tab === current;
          return (
            <button
              key={tab}
              ref={(button) => {
                if (button) buttons.current.set(tab, button);
                else buttons.current.delete(tab);
              }}
              type="button"
              role="tab"
              id={tabId(tab)}
              aria-selected={selected}
              aria-controls={PANEL_ID}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 sm:px-4 ${selected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'}`}
            >
              {TAB_LABEL[tab]}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(current)}>
        {children}
      </div>
    </>
  );
}
