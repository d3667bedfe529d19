import { useId, useRef } from 'react';
import { buttonClass } from './button';
import { Modal } from './modal';

type ConfirmDialogProps = {
  title: string;
  message: string;
  confirmLabel?: string;
  /** The dismissing button's text, when "Cancel" would be read as the action itself. */
  cancelLabel?: string;
  /** The confirm button's text while the action runs. */
  busyLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before a destructive action; Cancel has the focus so Enter never deletes by accident. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  busyLabel = 'Deleting...',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  return (
    <Modal
      title={title}
      role="alertdialog"
      describedBy={messageId}
      initialFocus={cancelRef}
      onClose={() => {
        if (!busy) onCancel();
      }}
      size="sm"
    >
      <p id={messageId} className="text-sm text-slate-600">
        {message}
      </p>
      <div className="mt-6 flex justify-end gap-2">
        <button
          ref={cancelRef}
          type="button"
          className={buttonClass('secondary')}
          onClick={onCancel}
          disabled={busy}
        >
          {cancelLabel}
        </button>
        <button type="button" className={buttonClass('danger')} onClick={onConfirm} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
