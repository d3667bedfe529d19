import { buttonClass } from './button';
import { Td } from './table';

/** The Edit and Delete buttons of a table row, named after the row for assistive technology. */
export function RowActions({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Td stickyEnd>
      <div className="flex gap-2">
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
