import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Item } from '../../../shared/items';
import { buttonClass } from '../../components/button';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { itemPath, NEW_ITEM_PATH } from '../../lib/admin-paths';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useMoney } from '../../lib/store-settings';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { priceRange } from './item-draft';
import { ITEMS_PAGE_SIZE, itemPageQuery } from './items-api';

function ItemRow({ item }: { item: Item }) {
  const money = useMoney();
  const options = item.options.map((option) => `${option.name} (${option.values.length})`).join(', ');
  return (
    <tr className="hover:bg-slate-50">
      <Td className="font-medium">
        <Link to={itemPath(item._id)} className="text-indigo-700 hover:underline">
          {item.name}
        </Link>
        {item.brand ? <span className="ml-2 text-xs font-normal text-slate-500">{item.brand}</span> : null}
      </Td>
      <Td>{item.category.name}</Td>
      <Td className="text-slate-600">{options || '—'}</Td>
      <Td className="text-right tabular-nums">{item.variants.length}</Td>
      <Td className="whitespace-nowrap tabular-nums">{priceRange(item.variants, money) ?? '—'}</Td>
    </tr>
  );
}

/** Admin: the items whose variants are products (DESIGN §22), by name, with search. */
export function ItemsPage() {
  const paging = usePagedList();
  const asked = { page: paging.page, pageSize: ITEMS_PAGE_SIZE };
  const list = useQuery(itemPageQuery({ search: paging.search || undefined, ...asked }));
  const page = serverPage(list.data && { ...list.data, rows: list.data.items }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Items">
        <Link to={NEW_ITEM_PATH} className={buttonClass('primary')}>
          New item
        </Link>
      </PageHeader>
      <div className="mb-4">
        <SearchField
          value={paging.text}
          onChange={paging.setText}
          placeholder="Search items by name..."
          maxLength={SEARCH_MAX_LENGTH}
        />
      </div>
      <Table caption="Items" busy={list.isPlaceholderData}>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Category</Th>
            <Th>Options</Th>
            <Th className="text-right">Variants</Th>
            <Th>Price</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <LoadState
            query={list}
            what="the items"
            loading="Loading items..."
            colSpan={5}
            waiting={isPastEnd(page)}
            isEmpty={() => page.total === 0}
            empty={
              paging.search ? (
                'No items match this search.'
              ) : (
                <>
                  <span className="block">No items yet.</span>
                  <span className="mt-2 block">
                    <Link to={NEW_ITEM_PATH} className="text-indigo-700 underline">
                      Make one
                    </Link>{' '}
                    to sell a product in sizes or colours.
                  </span>
                </>
              )
            }
          >
            {() => page.rows.map((item) => <ItemRow key={item._id} item={item} />)}
          </LoadState>
        </tbody>
      </Table>
      <Pager page={page} label="Items" onPage={paging.setPage} />
    </>
  );
}
