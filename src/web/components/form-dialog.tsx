import type { FormEventHandler, ReactNode } from 'react';
import { errorMessage } from '../lib/api';
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
  saving,
  showError = true,
  remedy,
  submitLabel,
  pendingLabel = 'Saving...',
  size,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The save (a mutation): while it runs the dialog waits; when it fails its sentence is shown. */
  saving: { isPending: boolean; error: unknown };
  /** False while the form says the failure its own way (next to a field, or as a choice). */
  showError?: boolean;
  /** What the failure offers to do instead, under its sentence (open the record it collides with). */
  remedy?: ReactNode;
  submitLabel: string;
  pendingLabel?: string;
  size?: 'sm' | 'md' | 'lg';
  children: ReactNode;
}) {
  const pending = saving.isPending;
  return (
    <Modal title={title} onClose={() => !pending && onClose()} size={size}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {children}
        <FormError>{showError && saving.error ? errorMessage(saving.error) : null}</FormError>
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
