import type { ReactNode } from 'react';
import { buttonClass } from './button';
import { Td } from './table';

/**
 * The Edit and Delete buttons of a table row, named after the row for assistive technology;
 * `children` come first (a row's own actions, such as Stock).
 */
export function RowActions({
  name,
  onEdit,
  onDelete,
  children,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  children?: ReactNode;
}) {
  return (
    <Td stickyEnd>
      <div className="flex gap-2">
        {children}
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          onClick={onEdit}
          aria-label={`Edit ${name}`}
        >
          Edit
        </button>
        <button
          type="button"
          className={buttonClass('danger', 'sm')}
          onClick={onDelete}
          aria-label={`Delete ${name}`}
        >
          Delete
        </button>
      </div>
    </Td>
  );
}
