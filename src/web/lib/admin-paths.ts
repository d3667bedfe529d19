/**
 * Admin screens that other screens link to, in one place: the products, the stock page of a
 * product, the purchase orders, the reorder suggestions, the reports and the books.
 */
export const PURCHASE_ORDERS_PATH = '/admin-dashboard/purchase-orders';
export const REORDER_PATH = '/admin-dashboard/reorder';
export const REPORTS_PATH = '/admin-dashboard/reports';
export const purchaseOrderPath = (id: string) => `${PURCHASE_ORDERS_PATH}/${encodeURIComponent(id)}`;
export const PRODUCTS_PATH = '/admin-dashboard/products';
/** The catalogue import (DESIGN §14): its upload step, and one import by its id. */
export const PRODUCTS_IMPORT_PATH = `${PRODUCTS_PATH}/import`;
export const productsImportPath = (id: string) => `${PRODUCTS_IMPORT_PATH}/${encodeURIComponent(id)}`;

/**
 * The offline sales to review (DESIGN §21): the open ones, or with `closed` the reviewed ones. A
 * sale's receipt is `salePath` (area-paths.ts), in the admin's area like everyone's.
 */
export const OFFLINE_REVIEW_PATH = '/admin-dashboard/sales/offline-review';
export const offlineReviewPath = (status?: 'open' | 'closed') =>
  status === 'closed' ? `${OFFLINE_REVIEW_PATH}?status=closed` : OFFLINE_REVIEW_PATH;

/** A query string kept as one parameter, or nothing when it is empty. */
function carrying(list: string | null | undefined): string {
  return list ? `?${new URLSearchParams({ list })}` : '';
}

/** Items and their variants (DESIGN §22): the list, a new one, and one item's editor. */
export const ITEMS_PATH = '/admin-dashboard/items';
export const NEW_ITEM_PATH = `${ITEMS_PATH}/new`;
export const itemPath = (id: string) => `${ITEMS_PATH}/${encodeURIComponent(id)}`;

/** A product's stock page; `list` is the products list's query string, for Back to Products. */
export const stockPath = (productId: string, list?: string) =>
  `${PRODUCTS_PATH}/${encodeURIComponent(productId)}/stock${carrying(list)}`;

/** The products list with the view the stock page carried (re-read, so it is only a query). */
export function productsPath(list?: string | null): string {
  const query = new URLSearchParams(list ?? '').toString();
  return query ? `${PRODUCTS_PATH}?${query}` : PRODUCTS_PATH;
}

/** The lots expiring within a window (DESIGN §15); `days` is its window when not the default. */
export const EXPIRING_PATH = '/admin-dashboard/lots/expiring';
/** A lot's trace: every movement of its units, for a recall. */
export const lotTracePath = (lotId: string) => `/admin-dashboard/lots/${encodeURIComponent(lotId)}`;

/** Transfers between locations (DESIGN §17): the list, a new one, one transfer and its packing list. */
export const TRANSFERS_PATH = '/admin-dashboard/transfers';
export const NEW_TRANSFER_PATH = `${TRANSFERS_PATH}/new`;
/** A new transfer the form opens filled in (the reorder page's suggestion): from, to, one product and its quantity. */
export function newTransferPath(
  suggest: { from?: string; to?: string; product?: string; quantity?: number } = {},
) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(suggest))
    if (value !== undefined && value !== '') query.set(name, String(value));
  const text = query.toString();
  return text ? `${NEW_TRANSFER_PATH}?${text}` : NEW_TRANSFER_PATH;
}
export const transferPath = (id: string) => `${TRANSFERS_PATH}/${encodeURIComponent(id)}`;
export const editTransferPath = (id: string) => `${transferPath(id)}/edit`;
export const packingListPath = (id: string) => `${transferPath(id)}/packing-list`;

/** Stocktakes (DESIGN §18): the list, a new one, and one stocktake's review. */
export const STOCKTAKES_PATH = '/admin-dashboard/stocktakes';
export const NEW_STOCKTAKE_PATH = `${STOCKTAKES_PATH}/new`;
export const stocktakePath = (id: string) => `${STOCKTAKES_PATH}/${encodeURIComponent(id)}`;

/**
 * The books (DESIGN §19): the chart of accounts (Accounting's first screen), an account's ledger,
 * the journal (filtered as `filters` say: a document's entries by `source` and `sourceId`), one
 * entry, the manual entry form and the reports.
 */
export const ACCOUNTING_PATH = '/admin-dashboard/accounting';
export const ledgerPath = (accountId: string) =>
  `${ACCOUNTING_PATH}/accounts/${encodeURIComponent(accountId)}`;
export const JOURNAL_PATH = `${ACCOUNTING_PATH}/journal`;
export function journalPath(
  filters: { source?: string; sourceId?: string; account?: string; from?: string; to?: string } = {},
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${JOURNAL_PATH}?${text}` : JOURNAL_PATH;
}
export const NEW_ENTRY_PATH = `${JOURNAL_PATH}/new`;
export const journalEntryPath = (id: string) => `${JOURNAL_PATH}/${encodeURIComponent(id)}`;
export const TRIAL_BALANCE_PATH = `${ACCOUNTING_PATH}/trial-balance`;
export const PROFIT_AND_LOSS_PATH = `${ACCOUNTING_PATH}/profit-and-loss`;
export const BALANCE_SHEET_PATH = `${ACCOUNTING_PATH}/balance-sheet`;
export const BOOKS_CHECK_PATH = `${ACCOUNTING_PATH}/check`;
export const LOCK_DATE_PATH = `${ACCOUNTING_PATH}/lock-date`;
/** What is owed to suppliers (DESIGN §20): aged, goods received and not billed, the tax return, the accountant's files. */
export const PAYABLES_PATH = `${ACCOUNTING_PATH}/payables`;
export const RECEIVED_NOT_BILLED_PATH = `${ACCOUNTING_PATH}/received-not-billed`;
export const TAX_RETURN_PATH = `${ACCOUNTING_PATH}/tax-return`;
export const EXPORT_PATH = `${ACCOUNTING_PATH}/export`;

/**
 * Suppliers' bills and the payments that settle them (DESIGN §20): the list, a new bill (filled
 * from a purchase order's lines received and not billed when one is named), one bill, a draft's
 * editor, and Pay bills (a supplier chosen already when one is named).
 */
export const BILLS_PATH = '/admin-dashboard/bills';
export const NEW_BILL_PATH = `${BILLS_PATH}/new`;
/** The bills of one supplier. */
export const supplierBillsPath = (supplier: string) => `${BILLS_PATH}?${new URLSearchParams({ supplier })}`;
export const newBillPath = (purchaseOrder?: string) =>
  purchaseOrder ? `${NEW_BILL_PATH}?${new URLSearchParams({ purchaseOrder })}` : NEW_BILL_PATH;
export const billPath = (id: string) => `${BILLS_PATH}/${encodeURIComponent(id)}`;
export const editBillPath = (id: string) => `${billPath(id)}/edit`;
export const PAY_BILLS_PATH = `${BILLS_PATH}/pay`;
export const payBillsPath = (supplier?: string) =>
  supplier ? `${PAY_BILLS_PATH}?${new URLSearchParams({ supplier })}` : PAY_BILLS_PATH;
