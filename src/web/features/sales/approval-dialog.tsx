import { type FormEvent, useRef, useState } from 'react';
import { ApprovalInput } from '../../../shared/sales';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { formatPercent } from './cart-rules';

/** Why a manager is asked: the lines discounted above the store's limit, the lines sold above stock. */
export type ApprovalReason = { overLimit: string[]; overStock: string[] };

function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * A manager approves at the counter (DESIGN §12): an admin types their email and PIN on the
 * cashier's screen, and the sale is sent with that approval. The server judges the PIN; its
 * refusal (a wrong PIN, too many tries) is shown here and the sale stays as it is.
 */
export function ApprovalDialog({
  reason,
  maxDiscountPercent,
  busy,
  error,
  onApprove,
  onCancel,
}: {
  reason: ApprovalReason;
  maxDiscountPercent: number;
  busy: boolean;
  /** The server's sentence for the last try, if it refused. */
  error: string | null;
  onApprove: (approval: ApprovalInput) => void;
  onCancel: () => void;
}) {
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [pin, setPin] = useState('');
  const [problems, setProblems] = useState<{ email?: string; pin?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    if (busy) return;
    const found: { email?: string; pin?: string } = {};
    if (!email.trim()) found.email = "Enter the manager's email.";
    const parsed = ApprovalInput.safeParse({ email: email.trim(), pin });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'pin' ? 'pin' : 'email';
        found[field] ??= issue.message;
      }
    }
    setProblems(found);
    if (found.email || found.pin || !parsed.success) return;
    onApprove(parsed.data);
  }

  return (
    <Modal
      title="Manager approval"
      initialFocus={emailRef}
      onClose={() => {
        if (!busy) onCancel();
      }}
      size="sm"
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <div className="space-y-1 text-sm text-slate-600">
          {reason.overLimit.length > 0 ? (
            <p>
              The discount on {listed(reason.overLimit)} is more than {formatPercent(maxDiscountPercent)}, the
              most given without a manager.
            </p>
          ) : null}
          {reason.overStock.length > 0 ? (
            <p>
              {listed(reason.overStock)}: more than the stock the system knows is sold, and the missing units
              are recorded as found.
            </p>
          ) : null}
          <p>An admin approves with their email and PIN.</p>
        </div>
        <TextField
          ref={emailRef}
          label="Manager's email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={problems.email}
          disabled={busy}
        />
        <TextField
          label="PIN"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          value={pin}
          onChange={(event) => setPin(event.target.value)}
          error={problems.pin}
          disabled={busy}
        />
        <FormError>{error}</FormError>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass('secondary')} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={busy}>
            {busy ? 'Completing sale...' : 'Approve and complete sale'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
