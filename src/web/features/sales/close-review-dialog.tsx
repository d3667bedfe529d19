import { zodResolver } from '@hookform/resolvers/zod';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { refusalSentence } from '../../../shared/refusals';
import { ReviewInput, type ReviewItem, saleNumberLabel } from '../../../shared/sales';
import { FormDialog } from '../../components/form-dialog';
import { FormError, TextAreaField } from '../../components/form-field';
import { refusedAs } from '../../lib/api';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { idempotencyKeys } from '../../lib/idempotency';
import { notify } from '../../lib/notify';
import { REVIEW_REASON_LABEL } from './review-reasons';
import { useCloseReview } from './sales-api';

/** The note's longest length, as ReviewInput allows. */
export const NOTE_MAX_LENGTH = 500;

/**
 * Closes the review of one offline sale (DESIGN §21): the admin says what was done about it (a
 * stock count, a price confirmed with the seller). The note is checked with the shared
 * ReviewInput before it is sent; a review someone closed meanwhile says so, and the list moves it
 * to Reviewed.
 */
export function CloseReviewDialog({
  item,
  onClose,
  onDone,
}: {
  item: ReviewItem;
  /** Cancelled: nothing was sent, or nothing was closed. */
  onClose: () => void;
  /** The review is closed. */
  onDone: () => void;
}) {
  const close = useCloseReview();
  const keys = useRef(idempotencyKeys()).current;
  const label = saleNumberLabel(item.sale.number);
  const closedAlready = refusedAs(close.error, 'REVIEW_CLOSED');
  const form = useForm({ resolver: zodResolver(ReviewInput), defaultValues: { note: '' } });
  const field = fieldProps(form);

  const submit = form.handleSubmit((input) => {
    const key = keys.keyFor({ review: item.sale._id, ...input });
    close.mutate(
      { id: item.sale._id, input, key },
      {
        onSuccess: () => {
          keys.settled();
          notify.success(`The review of ${label} is closed.`);
          onDone();
        },
        onError: (error) => {
          keys.settled(error);
          applyServerFieldErrors(error, ['note'] as const, form.setError);
        },
      },
    );
  });

  return (
    <FormDialog
      title={`Close review of ${label}`}
      onClose={onClose}
      onSubmit={submit}
      saving={close}
      showError={!closedAlready}
      remedy={
        closedAlready ? (
          <FormError>
            {refusalSentence('REVIEW_CLOSED', { sale: label })} It is listed under Reviewed.
          </FormError>
        ) : null
      }
      submitLabel="Close review"
      pendingLabel="Closing..."
    >
      <div className="text-sm text-slate-700">
        <p>
          Device number <span className="font-medium break-all">{item.deviceNumber}</span>, sold by{' '}
          {item.seller.name}.
        </p>
        <ul className="mt-2 list-disc space-y-0.5 pl-5">
          {item.review.map((reason) => (
            <li key={reason}>{REVIEW_REASON_LABEL[reason]}</li>
          ))}
        </ul>
      </div>
      <TextAreaField
        label="Note"
        hint={`What was done about it: required, up to ${NOTE_MAX_LENGTH} characters.`}
        maxLength={NOTE_MAX_LENGTH}
        rows={4}
        aria-required
        {...field('note')}
      />
    </FormDialog>
  );
}
