import { useState } from 'react';
import type { Supplier } from '../../../shared/suppliers';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { RowActions } from '../../components/row-actions';
import { Table, Td, Th } from '../../components/table';
import { notify } from '../../lib/notify';
import { pageOf } from '../../lib/paging';
import { filterByName } from '../../lib/search';
import { usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { SupplierFormModal } from './supplier-form-modal';
import { useDeleteSupplier, useSupplierList } from './suppliers-api';

type Editing = { supplier: Supplier | null } | null;

/** Admin: suppliers with a modal for adding and editing. */
export function SuppliersPage() {
  const list = useSupplierList();
  const remove = useDeleteSupplier();
  // The search and the page live in the address (?q=…&page=2); the list is filtered here as it
  // is typed, on page 1 until the address has caught up with the box.
  const paging = usePagedList();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Supplier | null>(null);

  const suppliers = filterByName(list.data?.suppliers ?? [], paging.text);
  const page = pageOf(suppliers, paging.typing ? 1 : paging.page);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !paging.typing, paging.setPage);

  return (
    <>
      <PageHeader title="Supplier Management">
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={() => setEditing({ supplier: null })}
        >
          Add Supplier
        </button>
      </PageHeader>
      <div className="mb-4">
        <SearchField value={paging.text} onChange={paging.setText} placeholder="Search suppliers..." />
      </div>
      <Table caption="Suppliers">
        <thead>
          <tr>
            <Th className="w-16">#</Th>
            <Th>Name</Th>
            <Th>Email</Th>
            <Th>Phone</Th>
            <Th>Address</Th>
            <Th stickyEnd>Actions</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the suppliers"
            colSpan={6}
            isEmpty={() => page.total === 0}
            empty="No suppliers found"
          >
            {() =>
              page.rows.map((supplier, index) => (
                <tr key={supplier._id} className="hover:bg-slate-50">
                  <Td className="tabular-nums text-slate-500">{page.offset + index + 1}</Td>
                  <Td className="font-medium">{supplier.name}</Td>
                  <Td>{supplier.email}</Td>
                  <Td className="whitespace-nowrap">{supplier.phone}</Td>
                  <Td>{supplier.address}</Td>
                  <RowActions
                    name={supplier.name}
                    onEdit={() => setEditing({ supplier })}
                    onDelete={() => setDeleting(supplier)}
                  />
                </tr>
              ))
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Suppliers" onPage={paging.setPage} />

      {editing ? <SupplierFormModal supplier={editing.supplier} onClose={() => setEditing(null)} /> : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete supplier?"
          message={`“${deleting.name}” will be deleted. A supplier still used by products cannot be deleted.`}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => notify.success('Supplier deleted.'),
              onSettled: () => setDeleting(null),
            })
          }
        />
      ) : null}
    </>
  );
}
