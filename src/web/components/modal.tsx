import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusablesIn(node: HTMLElement): HTMLElement[] {
  return Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
}

/** Open dialogs, innermost last: only the innermost one answers keys. */
const openDialogs: HTMLElement[] = [];

type ModalProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Element to focus when the dialog opens; the first focusable one otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** For alert dialogs (confirmations). */
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
  size?: 'sm' | 'md' | 'lg';
  /** `start`: a panel the height of the screen at its left edge (the menu on phones). */
  placement?: 'center' | 'start';
};

const WIDTH = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' } as const;

/**
 * A modal dialog: takes focus on open, keeps Tab inside, closes on Escape, and gives focus back
 * to whatever had it before. The page behind becomes inert while it is open.
 */
export function Modal({
  title,
  onClose,
  children,
  initialFocus,
  role = 'dialog',
  describedBy,
  size = 'md',
  placement = 'center',
}: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // Runs once per opening; the latest onClose is read through a ref, initialFocus on open only.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openDialogs.push(dialog);
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const target = initialFocus?.current ?? focusablesIn(dialog)[0] ?? dialog;
    target.focus();

    function onKeyDown(event: KeyboardEvent) {
      if (!dialog || openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusablesIn(dialog);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const active = document.activeElement;
      const inside = active instanceof Node && dialog.contains(active);
      if (event.shiftKey && (active === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = openDialogs.lastIndexOf(dialog);
      if (index >= 0) openDialogs.splice(index, 1);
      if (openDialogs.length === 0) {
        root?.removeAttribute('inert');
        document.body.style.overflow = overflow;
      }
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  // role is dialog or alertdialog; both are modal here.
  const dialogAria = {
    role,
    'aria-modal': true,
    'aria-labelledby': titleId,
    'aria-describedby': describedBy,
  } as const;

  const atStart = placement === 'start';
  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a tap beside the menu panel closes it; keys have Escape and Close
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above
    <div
      onClick={atStart ? (event) => event.target === event.currentTarget && closeRef.current() : undefined}
      className={
        atStart
          ? 'fixed inset-0 z-40 flex bg-slate-900/50'
          : 'fixed inset-0 z-40 flex items-end justify-center overflow-y-auto bg-slate-900/50 p-4 sm:items-center'
      }
    >
      <div
        ref={dialogRef}
        {...dialogAria}
        tabIndex={-1}
        className={
          atStart
            ? 'relative h-full w-72 max-w-[85vw] overflow-y-auto bg-white p-4 shadow-xl'
            : `my-auto w-full ${WIDTH[size]} rounded-lg bg-white p-6 shadow-xl`
        }
      >
        <h2 id={titleId} className="mb-4 text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
