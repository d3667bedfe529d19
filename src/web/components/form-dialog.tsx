import type { FormEventHandler, ReactNode } from 'react';
import { buttonClass } from './button';
import { FormError } from './form-field';
import { Modal } from './modal';

/**
 * A form in a dialog: its fields, the server's sentence when a save fails, then Cancel and the
 * submit button. While the save runs both buttons wait and Escape does not close it; the Modal
 * keeps the focus inside and gives it back on close.
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  pending,
  error,
  remedy,
  submitLabel,
  pendingLabel = 'Saving...',
  size,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The save is running. */
  pending: boolean;
  /** The form-level failure (the server's sentence); nothing shown when empty. */
  error?: ReactNode;
  /** What the failure offers to do instead, under its sentence (open the record it collides with). */
  remedy?: ReactNode;
  submitLabel: string;
  pendingLabel?: string;
  size?: 'sm' | 'md' | 'lg';
  children: ReactNode;
}) {
  return (
    <Modal title={title} onClose={() => !pending && onClose()} size={size}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {children}
        <FormError>{error}</FormError>
        {remedy}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClass('secondary')} onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
