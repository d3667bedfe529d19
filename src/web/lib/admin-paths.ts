/**
 * Admin screens that other screens link to, in one place: the products, the stock page of a
 * product, the purchase orders, the reorder suggestions and the reports.
 */
export const PURCHASE_ORDERS_PATH = '/admin-dashboard/purchase-orders';
export const REORDER_PATH = '/admin-dashboard/reorder';
export const REPORTS_PATH = '/admin-dashboard/reports';
export const purchaseOrderPath = (id: string) => `${PURCHASE_ORDERS_PATH}/${encodeURIComponent(id)}`;
export const PRODUCTS_PATH = '/admin-dashboard/products';
/** The catalogue import (DESIGN §14): its upload step, and one import by its id. */
export const PRODUCTS_IMPORT_PATH = `${PRODUCTS_PATH}/import`;
export const productsImportPath = (id: string) => `${PRODUCTS_IMPORT_PATH}/${encodeURIComponent(id)}`;

/** A query string kept as one parameter, or nothing when it is empty. */
function carrying(list: string | null | undefined): string {
  return list ? `?${new URLSearchParams({ list })}` : '';
}

/** A product's stock page; `list` is the products list's query string, for Back to Products. */
export const stockPath = (productId: string, list?: string) =>
  `${PRODUCTS_PATH}/${encodeURIComponent(productId)}/stock${carrying(list)}`;

/** The products list with the view the stock page carried (re-read, so it is only a query). */
export function productsPath(list?: string | null): string {
  const query = new URLSearchParams(list ?? '').toString();
  return query ? `${PRODUCTS_PATH}?${query}` : PRODUCTS_PATH;
}

/** A lot's recall trace (DESIGN §15): who got its units. */
export const lotPath = (lotId: string) => `/admin-dashboard/lots/${encodeURIComponent(lotId)}`;
