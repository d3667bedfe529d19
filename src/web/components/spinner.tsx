import { buttonClass } from './button';

/** The spec's loading text, announced politely. */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-6 text-sm text-slate-600">
      <span
        aria-hidden="true"
        className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600"
      />
      {label}
    </p>
  );
}

/**
 * A page's record that could not be shown: the sentence, and "Try again" when trying again can
 * help (`retry`; leave it out when the record does not exist).
 */
export function LoadFailed({
  message,
  retry,
  className = '',
}: {
  message: string;
  retry?: () => void;
  className?: string;
}) {
  return (
    <div role="alert" className={`space-y-2 rounded-md bg-red-50 p-4 text-sm text-red-800 ${className}`}>
      <p>{message}</p>
      {retry ? (
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
