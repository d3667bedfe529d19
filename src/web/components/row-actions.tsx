import type { ReactNode } from 'react';
import { buttonClass } from './button';
import { Td } from './table';

/**
 * The Edit and Delete buttons of a table row, named after the row for assistive technology;
 * `children` come first (a row's own actions, such as Stock).
 */
export function RowActions(props: ActionProps) {
  return (
    <Td stickyEnd>
      <div className="flex gap-2">
        <EditDeleteButtons {...props} />
      </div>
    </Td>
  );
}

type ActionProps = {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  children?: ReactNode;
  /** Extra classes of each button (a card's buttons are touch-sized). */
  buttonExtra?: string;
};

/** The same buttons with the same names, for a card on phones. */
export function EditDeleteButtons({ name, onEdit, onDelete, children, buttonExtra = '' }: ActionProps) {
  return (
    <>
      {children}
      <button
        type="button"
        className={buttonClass('secondary', 'sm', buttonExtra)}
        onClick={onEdit}
        aria-label={`Edit ${name}`}
      >
        Edit
      </button>
      <button
        type="button"
        className={buttonClass('danger', 'sm', buttonExtra)}
        onClick={onDelete}
        aria-label={`Delete ${name}`}
      >
        Delete
      </button>
    </>
  );
}
