import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Customer } from '../../../shared/customers';
import { can } from '../../../shared/roles';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { customerPath } from '../../lib/area-paths';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { CustomerFormModal } from './customer-form-modal';
import { customerPageQuery, useDeleteCustomer } from './customers-api';

type Editing = { customer: Customer | null } | null;

/** On phones a row is a small card: the name and the actions, then phone, email and address. */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:col-span-2 max-sm:p-0';

function CustomerRow({
  customer,
  href,
  actions,
}: {
  customer: Customer;
  href: string;
  actions?: { onEdit: () => void; onDelete: () => void };
}) {
  return (
    <tr className={`hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className={`font-medium max-sm:p-0 ${actions ? '' : 'max-sm:col-span-2'}`}>
        <Link to={href} className="text-indigo-700 hover:underline">
          {customer.name}
        </Link>
      </Td>
      <Td className={`whitespace-nowrap max-sm:text-slate-600 ${STACKED_CELL}`}>{customer.phone}</Td>
      <Td className={`max-sm:[overflow-wrap:anywhere] max-sm:text-slate-600 ${STACKED_CELL}`}>
        {customer.email}
      </Td>
      <Td className={`text-slate-600 max-sm:text-xs ${STACKED_CELL}`}>{customer.address}</Td>
      {actions ? (
        <Td className="max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
          <div className="flex justify-end gap-2 sm:justify-start">
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={actions.onEdit}
              aria-label={`Edit ${customer.name}`}
            >
              Edit
            </button>
            <button
              type="button"
              className={buttonClass('danger', 'sm')}
              onClick={actions.onDelete}
              aria-label={`Delete ${customer.name}`}
            >
              Delete
            </button>
          </div>
        </Td>
      ) : null}
    </tr>
  );
}

/**
 * The store's customers, a page at a time, searched by name, phone or email (DESIGN §11). Anyone
 * who sells adds them; only admins edit and delete.
 */
export function CustomersPage() {
  const me = useSignedInUser();
  const mayAdd = can(me.role, 'customers:create');
  const mayChange = can(me.role, 'customers:write');
  const paging = usePagedList();
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useQuery(customerPageQuery({ search: paging.search || undefined, ...asked }));
  const remove = useDeleteCustomer();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Customer | null>(null);
  const columns = mayChange ? 5 : 4;

  const page = serverPage(list.data && { ...list.data, rows: list.data.customers }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Customers">
        {mayAdd ? (
          <button
            type="button"
            className={buttonClass('primary')}
            onClick={() => setEditing({ customer: null })}
          >
            Add customer
          </button>
        ) : null}
      </PageHeader>
      <search aria-label="Search customers" className="mb-4 block">
        <SearchField
          value={paging.text}
          onChange={paging.setText}
          placeholder="Name, phone or email..."
          maxLength={SEARCH_MAX_LENGTH}
        />
      </search>
      <Table caption="Customers" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Name</Th>
            <Th>Phone</Th>
            <Th>Email</Th>
            <Th>Address</Th>
            {mayChange ? <Th>Actions</Th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the customers"
            loading="Loading customers..."
            colSpan={columns}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={paging.search ? `No customers match “${paging.search}”.` : 'No customers yet.'}
          >
            {() =>
              page.rows.map((customer) => (
                <CustomerRow
                  key={customer._id}
                  customer={customer}
                  href={customerPath(me.role, customer._id)}
                  actions={
                    mayChange
                      ? { onEdit: () => setEditing({ customer }), onDelete: () => setDeleting(customer) }
                      : undefined
                  }
                />
              ))
            }
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Customers" onPage={paging.setPage} />

      {editing ? <CustomerFormModal customer={editing.customer} onClose={() => setEditing(null)} /> : null}

      {deleting ? (
        <ConfirmDialog
          title="Delete customer?"
          message={`“${deleting.name}” will be deleted. Their past sales keep the name they were sold under.`}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => notify.success('Customer deleted.'),
              onSettled: () => setDeleting(null),
            })
          }
        />
      ) : null}
    </>
  );
}
