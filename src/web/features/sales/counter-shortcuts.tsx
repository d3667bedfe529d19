import { useEffect, useRef } from 'react';

/** What the counter's shortcuts do; each is a key the browser leaves alone in Chromium and Firefox. */
export type Shortcut = 'scan' | 'quantity' | 'pay' | 'complete';

/** The keys of each shortcut as aria-keyshortcuts writes them, for the control they reach. */
export const SHORTCUT_KEYS: Record<Shortcut, string> = {
  scan: 'F2 /',
  quantity: 'F4 Alt+Q',
  pay: 'F8',
  complete: 'F9 Control+Enter',
};

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  return (
    target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(target.type)
  );
}

/** The shortcut a key press means, or null. "/" is text while typing, so it counts only outside a field. */
export function shortcutOf(event: KeyboardEvent): Shortcut | null {
  if (event.isComposing) return null;
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey;
  if (plain && event.key === 'F2') return 'scan';
  if (plain && event.key === '/' && !isTyping(event.target)) return 'scan';
  if (plain && event.key === 'F4') return 'quantity';
  // By its place on the keyboard: on a Mac, Option+Q types "œ".
  if (event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyQ') return 'quantity';
  if (plain && event.key === 'F8') return 'pay';
  if (plain && event.key === 'F9') return 'complete';
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key === 'Enter') return 'complete';
  return null;
}

/** Runs the counter's shortcuts while the counter is on screen. */
export function useCounterShortcuts(run: (shortcut: Shortcut) => void): void {
  // The latest handler, without re-adding the listener on every render.
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const shortcut = shortcutOf(event);
      if (!shortcut) return;
      // A dialog open over the counter has the keyboard to itself.
      if (
        event.target instanceof Element &&
        event.target.closest('dialog, [role="dialog"], [role="alertdialog"]')
      )
        return;
      event.preventDefault();
      latest.current(shortcut);
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

const KBD =
  'rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-sans text-xs font-semibold text-slate-700';

const LEGEND: { keys: string[]; does: string }[] = [
  { keys: ['F2', '/'], does: 'Scan or search' },
  { keys: ['F4', 'Alt+Q'], does: 'Quantity of the last line' },
  { keys: ['F8'], does: 'Payment' },
  { keys: ['F9', 'Ctrl+Enter'], does: 'Complete sale' },
];

/** The shortcuts, on screen where a keyboard is likely (not on a phone). */
export function ShortcutLegend() {
  return (
    <section aria-labelledby="counter-shortcuts" className="hidden text-sm text-slate-600 sm:block">
      <h2 id="counter-shortcuts" className="mb-2 text-sm font-semibold text-slate-900">
        Keyboard shortcuts
      </h2>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1.5">
        {LEGEND.map(({ keys, does }) => (
          <div key={does} className="contents">
            <dt className="whitespace-nowrap">
              {keys.map((key, at) => (
                <span key={key}>
                  {at > 0 ? <span className="px-1 text-slate-400">or</span> : null}
                  <kbd className={KBD}>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
