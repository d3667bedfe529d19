import { useState } from 'react';
import type { Category } from '../../../shared/categories';
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
import { useCategoryList, useDeleteCategory } from './categories-api';
import { CategoryForm } from './category-form';

/** Admin: categories with a side form for adding and editing. */
export function CategoriesPage() {
  const list = useCategoryList();
  const remove = useDeleteCategory();
  // The search and the page live in the address (?q=…&page=2); the list is filtered here as it
  // is typed, on page 1 until the address has caught up with the box.
  const paging = usePagedList();
  const [editing, setEditing] = useState<Category | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);

  const categories = filterByName(list.data?.categories ?? [], paging.text);
  const page = pageOf(categories, paging.typing ? 1 : paging.page);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !paging.typing, paging.setPage);

  return (
    <>
      <PageHeader title="Category Management" />
      <div className="grid items-start gap-6 lg:grid-cols-[20rem_1fr]">
        <CategoryForm key={editing?._id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
        <div className="min-w-0 space-y-4">
          <SearchField value={paging.text} onChange={paging.setText} placeholder="Search categories..." />
          <Table caption="Categories">
            <thead>
              <tr>
                <Th className="w-16">#</Th>
                <Th>Name</Th>
                <Th stickyEnd>Actions</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              <LoadState
                query={list}
                what="the categories"
                colSpan={3}
                isEmpty={() => page.total === 0}
                empty="No categories found"
              >
                {() =>
                  page.rows.map((category, index) => (
                    <tr
                      key={category._id}
                      className={editing?._id === category._id ? 'bg-indigo-50' : 'hover:bg-slate-50'}
                    >
                      <Td className="tabular-nums text-slate-500">{page.offset + index + 1}</Td>
                      <Td className="font-medium">{category.name}</Td>
                      <RowActions
                        name={category.name}
                        onEdit={() => setEditing(category)}
                        onDelete={() => setDeleting(category)}
                      />
                    </tr>
                  ))
                }
              </LoadState>
            </tbody>
          </Table>
          <Pager page={page} label="Categories" onPage={paging.setPage} />
        </div>
      </div>

      {deleting ? (
        <ConfirmDialog
          title="Delete category?"
          message={`“${deleting.name}” will be deleted. A category still used by products cannot be deleted.`}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => {
                notify.success('Category deleted.');
                if (editing?._id === deleting._id) setEditing(null);
              },
              onSettled: () => setDeleting(null),
            })
          }
        />
      ) : null}
    </>
  );
}
