/**
 * Admin screens that other screens link to, in one place: the stock page of a product, the
 * purchase orders, the reorder suggestions and the reports.
 */
export const PURCHASE_ORDERS_PATH = '/admin-dashboard/purchase-orders';
export const REORDER_PATH = '/admin-dashboard/reorder';
export const REPORTS_PATH = '/admin-dashboard/reports';
export const purchaseOrderPath = (id: string) => `${PURCHASE_ORDERS_PATH}/${encodeURIComponent(id)}`;
export const stockPath = (productId: string) =>
  `/admin-dashboard/products/${encodeURIComponent(productId)}/stock`;
