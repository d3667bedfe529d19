import type { ReviewReason } from '../../../shared/sales';

/** Why an offline sale is to be reviewed (DESIGN §21), in plain words. */
export const REVIEW_REASON_LABEL: Record<ReviewReason, string> = {
  stock: 'Sold above recorded stock',
  price: 'Price not on record',
  session: 'Session had closed',
};
