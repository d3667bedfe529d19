import { type ReactNode, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { dismiss, getNotices, subscribeNotices } from '../lib/notify';

/**
 * Visible notifications: errors as alerts, successes as status messages. They stack at the
 * bottom (right from sm): at the top they covered the page header's buttons for their 5–10 s.
 * A notice's link opens in the app through `navigate` (the area sits outside the router), or as
 * a plain link without it. `children` is a standing notice that waits for an answer (a new
 * version of the app), shown above the passing ones rather than on top of them.
 */
export function Notifications({
  navigate,
  children,
}: {
  navigate?: (to: string) => void;
  children?: ReactNode;
} = {}) {
  const notices = useSyncExternalStore(subscribeNotices, getNotices, getNotices);
  return createPortal(
    <div
      data-testid="notifications"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end print:hidden"
    >
      {children}
      {notices.map((notice) => (
        <div
          key={notice.id}
          className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
            notice.kind === 'error'
              ? 'border-red-200 bg-red-50 text-red-800'
              : 'border-green-200 bg-green-50 text-green-800'
          }`}
        >
          <div className="flex-1">
            <p role={notice.kind === 'error' ? 'alert' : 'status'}>{notice.text}</p>
            {notice.link ? (
              <a
                href={notice.link.to}
                className="font-medium underline hover:no-underline"
                onClick={(event) => {
                  if (!navigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
                    return;
                  event.preventDefault();
                  dismiss(notice.id);
                  navigate(notice.link?.to ?? '/');
                }}
              >
                {notice.link.label}
              </a>
            ) : null}
          </div>
          <button
            type="button"
            onClick={() => dismiss(notice.id)}
            className="-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100"
            aria-label="Dismiss notification"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>,
    document.body,
  );
}
