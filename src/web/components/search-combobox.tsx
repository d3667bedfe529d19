import { type KeyboardEvent, type ReactNode, type Ref, useId, useState } from 'react';
import { SEARCH_MAX_LENGTH } from '../lib/use-paged-list';
import { BoxLabel } from './form-field';

/**
 * A search box whose matches drop down as a listbox (the ARIA combobox pattern): arrow keys move
 * through the matches, Enter goes to `onEnter` with the highlighted one, Escape closes, a click
 * picks. `matches` are those of the text in the box (empty while they load). The counter's product
 * and customer searches and the purchase order's product picker are this one control.
 */
export function SearchCombobox<T extends { _id: string }>({
  label,
  placeholder,
  text,
  onText,
  matches,
  renderMatch,
  onPick,
  onEnter,
  status,
  listLabel = `Matches for ${label.toLowerCase()}`,
  hint,
  inputRef,
  keyShortcuts,
  autoFocus = false,
}: {
  label: string;
  placeholder: string;
  text: string;
  onText: (text: string) => void;
  matches: readonly T[];
  renderMatch: (match: T) => ReactNode;
  onPick: (match: T) => void;
  /** Enter in the box: the highlighted match when the list is shown, else undefined. */
  onEnter: (highlighted: T | undefined) => void;
  /** What the search found, for screen readers (the caller shows what the eye needs). */
  status: string;
  /** The listbox's name. */
  listLabel?: string;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
  /** The keys that bring focus here, as aria-keyshortcuts writes them. */
  keyShortcuts?: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const shown = open && text.trim() !== '' && matches.length > 0;
  const current = shown ? matches[Math.min(active, matches.length - 1)] : undefined;
  const optionId = (match: T) => `${id}-${match._id}`;

  function pick(match: T) {
    onPick(match);
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (matches.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((now) => (Math.min(now, matches.length - 1) + step + matches.length) % matches.length);
    } else if (event.key === 'Enter') {
      // Enter in the box picks; it never submits a form around it. (Ctrl+Enter is the page's.)
      event.preventDefault();
      if (event.ctrlKey || event.metaKey) return;
      onEnter(current);
      setActive(0);
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  return (
    <div className="relative w-full">
      <BoxLabel htmlFor={id}>{label}</BoxLabel>
      <input
        id={id}
        ref={inputRef}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={current ? optionId(current) : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        aria-keyshortcuts={keyShortcuts}
        autoComplete="off"
        // The counter opens to scan: the box is where the scanner types.
        // biome-ignore lint/a11y/noAutofocus: the screen's one task starts in this box
        autoFocus={autoFocus}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          onText(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400"
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <div
        id={listId}
        role="listbox"
        aria-label={listLabel}
        hidden={!shown}
        className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200"
      >
        {matches.map((match) => (
          // Keyboard use goes through the combobox (aria-activedescendant); the mouse picks here.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the input above handles the keys
          <div
            key={match._id}
            id={optionId(match)}
            role="option"
            aria-selected={match === current}
            tabIndex={-1}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(match)}
            className={`cursor-pointer px-3 py-2 ${match === current ? 'bg-indigo-50' : ''}`}
          >
            {renderMatch(match)}
          </div>
        ))}
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>
    </div>
  );
}
