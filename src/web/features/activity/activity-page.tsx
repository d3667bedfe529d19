import { useQuery } from '@tanstack/react-query';
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  type AuditAction,
  type AuditChange,
  type AuditEntity,
  type AuditEntry,
  type AuditQuery,
  type AuditValue,
} from '../../../shared/audit';
import { ROLES, type Role } from '../../../shared/roles';
import { buttonClass } from '../../components/button';
import { DownloadCsvButton } from '../../components/download-csv';
import { SelectField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { BACKWARDS_RANGE, toDayError } from '../../lib/date-range';
import { formatDateTime, ROLE_LABEL } from '../../lib/format';
import { oneOf, pageIn, useListAddress } from '../../lib/list-address';
import { isPastEnd, PAGE_SIZE, serverPage, withQuery } from '../../lib/paging';
import { usePageInRange } from '../../lib/use-paged-list';
import { auditActorsQuery, auditPageQuery } from './activity-api';

export const ACTION_LABEL: Record<AuditAction, string> = {
  signedIn: 'Signed in',
  signInFailed: 'Sign-in failed',
  signInThrottled: 'Sign-in refused (too many attempts)',
  created: 'Created',
  updated: 'Changed',
  deleted: 'Deleted',
  stockAdjusted: 'Stock adjusted',
  stockCounted: 'Stock counted',
  returned: 'Returned',
  ordered: 'Ordered',
  received: 'Received',
  cancelled: 'Cancelled',
  closed: 'Closed',
  deactivated: 'Deactivated',
  reactivated: 'Reactivated',
  passwordReset: 'Password reset',
  discountApproved: 'Discount approved',
  stockOverridden: 'Sold above stock (approved)',
  pinChanged: 'PIN changed',
  opened: 'Opened',
  cashMoved: 'Cash in/out',
  refunded: 'Refunded',
  creditAdjusted: 'Store credit adjusted',
  imported: 'Imported',
  sent: 'Sent',
  posted: 'Posted',
  reversed: 'Reversed',
  voided: 'Voided',
  paid: 'Paid',
  allocated: 'Allocated',
};

const ACTION_TONE: Partial<Record<AuditAction, string>> = {
  signInFailed: 'bg-amber-100 text-amber-900',
  signInThrottled: 'bg-red-100 text-red-800',
  deleted: 'bg-slate-200 text-slate-800',
};

const ENTITY_LABEL: Record<AuditEntity, string> = {
  user: 'User',
  product: 'Product',
  category: 'Category',
  supplier: 'Supplier',
  order: 'Order',
  purchaseOrder: 'Purchase order',
  customer: 'Customer',
  store: 'Store settings',
  taxRate: 'Tax rate',
  sale: 'Sale',
  register: 'Register',
  registerSession: 'Till session',
  refund: 'Refund',
  import: 'Catalogue import',
  transfer: 'Transfer',
  location: 'Location',
  stocktake: 'Stocktake',
  item: 'Item',
  account: 'Account',
  journalEntry: 'Journal entry',
  books: 'Books',
  bill: 'Bill',
  supplierPayment: 'Supplier payment',
};

const ENTITY_CHOICE: Record<AuditEntity, string> = {
  user: 'Users and sign-ins',
  product: 'Products',
  category: 'Categories',
  supplier: 'Suppliers',
  order: 'Orders',
  purchaseOrder: 'Purchase orders',
  customer: 'Customers',
  store: 'Store settings',
  taxRate: 'Tax rates',
  sale: 'Sales',
  register: 'Registers',
  registerSession: 'Till sessions',
  refund: 'Refunds',
  import: 'Catalogue imports',
  transfer: 'Transfers',
  location: 'Locations',
  stocktake: 'Stocktakes',
  item: 'Items and variants',
  account: 'Chart of accounts',
  journalEntry: 'Journal entries',
  books: 'Books settings',
  bill: 'Bills',
  supplierPayment: 'Supplier payments',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// Phones: the three choices one under another, the two days side by side; wider: one or two rows.
const CHOICE = 'col-span-2 lg:col-span-1';
const DAY_FIELD = 'col-span-1 sm:col-span-3 lg:col-span-1';
const FILTER_NAMES = ['actor', 'action', 'entity', 'from', 'to'] as const;
type FilterName = (typeof FILTER_NAMES)[number];

/** The filters and page the address holds; anything unreadable there counts as unset. */
function readFilters(params: URLSearchParams) {
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  return {
    actor: params.get('actor') || undefined,
    action: oneOf(AUDIT_ACTIONS, params.get('action')),
    entity: oneOf(AUDIT_ENTITIES, params.get('entity')),
    from: day('from'),
    to: day('to'),
    page: pageIn(params),
  };
}

const MAX_VALUE_LENGTH = 80;

function formatValue(field: string, value: AuditValue | undefined): string {
  if (value === null || value === undefined) return '(none)';
  if (value === '') return '(empty)';
  if (field === 'role' && oneOf(ROLES, String(value))) return ROLE_LABEL[value as Role];
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const text = String(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/** "field: old → new", or one value for a creation or deletion, or "changed" for a secret. */
export function describeChange(change: AuditChange): string {
  const { field } = change;
  const hasOld = 'old' in change;
  const hasNew = 'new' in change;
  if (hasOld && hasNew)
    return `${field}: ${formatValue(field, change.old)} → ${formatValue(field, change.new)}`;
  if (hasNew) return `${field}: ${formatValue(field, change.new)}`;
  if (hasOld) return `${field}: ${formatValue(field, change.old)}`;
  return `${field}: changed`;
}

function formatTime(iso: string): string {
  return formatDateTime(iso, { seconds: true });
}

/**
 * On phones a row is a small card (time and action, who, the record, the changes) instead of five
 * columns to scroll sideways; the cells stay cells of the table.
 */
const STACKED_ROW =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3';
const STACKED_CELL = 'max-sm:p-0';

function EntryRow({ entry }: { entry: AuditEntry }) {
  const changes = entry.changes ?? [];
  return (
    <tr className={`align-top hover:bg-slate-50 ${STACKED_ROW}`}>
      <Td className={`tabular-nums text-slate-600 max-sm:text-xs sm:whitespace-nowrap ${STACKED_CELL}`}>
        <time dateTime={entry.at}>{formatTime(entry.at)}</time>
      </Td>
      <Td className={`sm:min-w-40 max-sm:col-start-1 max-sm:row-start-2 ${STACKED_CELL}`}>
        {entry.actor ? (
          <>
            <span className="block font-medium">{entry.actor.name}</span>
            <span className="block text-xs text-slate-500">{ROLE_LABEL[entry.actor.role]}</span>
          </>
        ) : (
          <span className="text-slate-500">Unknown</span>
        )}
      </Td>
      <Td className={`max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right ${STACKED_CELL}`}>
        <span
          className={`inline-block rounded px-2 py-0.5 text-xs font-medium sm:whitespace-nowrap ${ACTION_TONE[entry.action] ?? 'bg-indigo-50 text-indigo-800'}`}
        >
          {ACTION_LABEL[entry.action]}
        </span>
      </Td>
      <Td className={`min-w-40 max-sm:col-span-2 max-sm:min-w-0 ${STACKED_CELL}`}>
        <span className="block text-xs text-slate-500">{ENTITY_LABEL[entry.entity.type]}</span>
        <span className="block break-words">{entry.entity.name}</span>
      </Td>
      <Td className={`min-w-56 text-slate-700 max-sm:col-span-2 max-sm:min-w-0 ${STACKED_CELL}`}>
        {changes.length > 0 ? (
          <ul className="space-y-0.5">
            {changes.map((change) => (
              <li key={change.field} className="break-words">
                {describeChange(change)}
              </li>
            ))}
          </ul>
        ) : null}
        {entry.address ? <p className="text-xs text-slate-500">from {entry.address}</p> : null}
      </Td>
    </tr>
  );
}

/** Admin and super admin: who did what and when, newest first, filtered by who, what and when. */
export function ActivityPage() {
  const { params, setFilter, setPage, clear } = useListAddress<FilterName>();
  const filters = readFilters(params);
  const filtered = FILTER_NAMES.some((name) => filters[name] !== undefined);
  const rangeError = toDayError(filters.from, filters.to);

  const asked = { page: filters.page, pageSize: PAGE_SIZE };
  const query: AuditQuery = { ...filters, ...asked };
  const list = useQuery({ ...auditPageQuery(query), enabled: !rangeError });
  const actors = useQuery(auditActorsQuery());
  const page = serverPage(list.data && { ...list.data, rows: list.data.entries }, asked);

  usePageInRange(filters.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, setPage);

  const knownActor = actors.data?.actors.some((actor) => actor._id === filters.actor);

  return (
    <>
      <PageHeader title="Activity">
        <DownloadCsvButton path={withQuery('/audit', filters)} filename="activity.csv" />
      </PageHeader>
      <search aria-label="Filter activity" className="mb-4 block">
        <div className="grid grid-cols-2 items-start gap-3 sm:grid-cols-6 lg:grid-cols-[repeat(3,minmax(0,1fr))_10rem_10rem]">
          <div className={CHOICE}>
            <SelectField
              label="Who"
              value={filters.actor ?? ''}
              onChange={(e) => setFilter('actor', e.target.value)}
            >
              <option value="">Everyone</option>
              {filters.actor && !knownActor ? (
                <option value={filters.actor}>
                  {actors.isPending ? 'Loading…' : 'Someone not in the log'}
                </option>
              ) : null}
              {actors.data?.actors.map((actor) => (
                <option key={actor._id} value={actor._id}>
                  {actor.name} ({ROLE_LABEL[actor.role]})
                </option>
              ))}
            </SelectField>
          </div>
          <div className={CHOICE}>
            <SelectField
              label="Action"
              value={filters.action ?? ''}
              onChange={(e) => setFilter('action', e.target.value)}
            >
              <option value="">Any action</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {ACTION_LABEL[action]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={CHOICE}>
            <SelectField
              label="Entity"
              value={filters.entity ?? ''}
              onChange={(e) => setFilter('entity', e.target.value)}
            >
              <option value="">Everything</option>
              {AUDIT_ENTITIES.map((entity) => (
                <option key={entity} value={entity}>
                  {ENTITY_CHOICE[entity]}
                </option>
              ))}
            </SelectField>
          </div>
          <div className={DAY_FIELD}>
            <TextField
              label="From"
              type="date"
              value={filters.from ?? ''}
              max={filters.to}
              onChange={(e) => setFilter('from', e.target.value)}
            />
          </div>
          <div className={DAY_FIELD}>
            <TextField
              label="To"
              type="date"
              value={filters.to ?? ''}
              min={filters.from}
              error={rangeError}
              onChange={(e) => setFilter('to', e.target.value)}
            />
          </div>
        </div>
        {filtered ? (
          <button type="button" className={buttonClass('ghost', 'sm', 'mt-2 -ml-2.5')} onClick={clear}>
            Clear filters
          </button>
        ) : null}
      </search>
      <Table caption="Activity" busy={list.isPlaceholderData}>
        <thead className="max-sm:sr-only">
          <tr>
            <Th>Time</Th>
            <Th>Who</Th>
            <Th>Action</Th>
            <Th>Entity</Th>
            <Th>Changes</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rangeError ? (
            <TableMessage colSpan={5}>{BACKWARDS_RANGE}</TableMessage>
          ) : (
            <LoadState
              query={list}
              what="the activity"
              colSpan={5}
              waiting={isPastEnd(page)}
              isEmpty={() => page.total === 0}
              empty={filtered ? 'No activity matches these filters.' : 'No activity yet.'}
            >
              {() => page.rows.map((entry) => <EntryRow key={entry._id} entry={entry} />)}
            </LoadState>
          )}
        </tbody>
      </Table>
      <Pager page={page} label="Activity" onPage={setPage} />
    </>
  );
}
