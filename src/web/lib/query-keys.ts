import type { AuditQuery } from '../../shared/audit';
import type { BillQuery } from '../../shared/bills';
import type { CustomerQuery } from '../../shared/customers';
import type { ImportListQuery, ImportRowsQuery } from '../../shared/imports';
import type { ItemQuery } from '../../shared/items';
import type { ExpiringQuery } from '../../shared/lots';
import type { OrderQuery } from '../../shared/orders';
import type { ProductQuery } from '../../shared/products';
import type { PurchaseOrderQuery } from '../../shared/purchasing';
import type { ReviewQuery, SaleQuery } from '../../shared/sales';
import type { StocktakeLinesQuery, StocktakeQuery } from '../../shared/stocktakes';
import type { SessionQuery } from '../../shared/till';
import type { TransferQuery } from '../../shared/transfers';
import type { UserQuery } from '../../shared/users';

/**
 * Query keys shared by every screen, so a change on one screen refreshes the others. A page of a
 * list sits under its list's key, so invalidating `products` refreshes every page of products.
 */
export const queryKeys = {
  dashboard: ['dashboard'] as const,
  products: ['products'] as const,
  productPages: ['products', 'page'] as const,
  productPage: (query: ProductQuery) => ['products', 'page', query] as const,
  productChoices: ['products', 'choices'] as const,
  product: (id: string) => ['products', 'one', id] as const,
  movements: (id: string, page: number) => ['products', 'movements', id, page] as const,
  /** A product's lots (DESIGN §15), under the products: every stock change refreshes them. */
  productLots: (id: string) => ['products', 'lots', id] as const,
  categories: ['categories'] as const,
  suppliers: ['suppliers'] as const,
  users: ['users'] as const,
  userPages: ['users', 'page'] as const,
  userPage: (query: UserQuery) => ['users', 'page', query] as const,
  user: (id: string) => ['users', 'one', id] as const,
  orders: ['orders'] as const,
  orderPage: (userId: string, query: OrderQuery) => ['orders', userId, 'page', query] as const,
  audit: ['audit'] as const,
  auditPage: (query: AuditQuery) => ['audit', 'page', query] as const,
  auditActors: ['audit', 'actors'] as const,
  // Suggestions sit under purchase orders: ordering, receiving or cancelling changes what is on order.
  purchaseOrders: ['purchase-orders'] as const,
  purchaseOrderPage: (query: PurchaseOrderQuery) => ['purchase-orders', 'page', query] as const,
  purchaseOrder: (id: string) => ['purchase-orders', 'one', id] as const,
  reorderSuggestions: ['purchase-orders', 'suggestions'] as const,
  customers: ['customers'] as const,
  customerPages: ['customers', 'page'] as const,
  customerPage: (query: CustomerQuery) => ['customers', 'page', query] as const,
  customer: (id: string) => ['customers', 'one', id] as const,
  // A customer's purchases sit under the sales: whatever refreshes the sales refreshes them too.
  customerSales: (id: string, query: SaleQuery) => ['sales', 'customer', id, query] as const,
  sales: ['sales'] as const,
  salePage: (query: SaleQuery) => ['sales', 'page', query] as const,
  sale: (id: string) => ['sales', 'one', id] as const,
  // The offline sales to review (DESIGN §21), under the sales: whatever refreshes the sales refreshes them.
  saleReviews: ['sales', 'review'] as const,
  saleReviewPage: (query: ReviewQuery) => ['sales', 'review', query] as const,
  // The store's settings and tax rates: every screen that writes money reads the currency here.
  storeSettings: ['store'] as const,
  taxRates: ['store', 'tax-rates'] as const,
  // The till (DESIGN §13). Sessions sit under the sales: a sale or refund changes its session's report.
  registers: ['registers'] as const,
  sessions: ['sales', 'sessions'] as const,
  sessionPage: (query: SessionQuery) => ['sales', 'sessions', 'page', query] as const,
  session: (id: string) => ['sales', 'sessions', 'one', id] as const,
  openSession: (registerId: string) => ['sales', 'sessions', 'open', registerId] as const,
  // A customer's store credit sits under the sales too: a sale or refund may change it.
  customerCredit: (id: string, page: number) => ['sales', 'credit', id, page] as const,
  refund: (id: string) => ['sales', 'refunds', id] as const,
  // A catalogue import (DESIGN §14); its checked rows sit under it, so a new check refreshes them.
  catalogueImport: (id: string) => ['imports', id] as const,
  importRows: (id: string, query: ImportRowsQuery) => ['imports', id, 'rows', query] as const,
  /** The upload page's recent imports, a page at a time. */
  importList: (query: ImportListQuery) => ['imports', 'list', query] as const,
  // Lots and expiry (DESIGN §15): the expiring list a page at a time, and one lot's trace.
  lots: ['lots'] as const,
  expiringLots: (query: ExpiringQuery) => ['lots', 'expiring', query] as const,
  lotTrace: (id: string) => ['lots', 'trace', id] as const,
  // Locations (DESIGN §17). A product's stock by location sits under the products; transfers under
  // their own key, and a transfer's step refreshes the products too (stock moved).
  locations: ['locations'] as const,
  productLocations: (id: string) => ['products', 'locations', id] as const,
  transfers: ['transfers'] as const,
  transferPage: (query: TransferQuery) => ['transfers', 'page', query] as const,
  transfer: (id: string) => ['transfers', 'one', id] as const,
  // Stocktakes (DESIGN §18): a count refreshes its stocktake and its lines (both under its key).
  stocktakes: ['stocktakes'] as const,
  stocktakePage: (query: StocktakeQuery) => ['stocktakes', 'page', query] as const,
  stocktake: (id: string) => ['stocktakes', 'one', id] as const,
  stocktakeLines: (id: string, query: StocktakeLinesQuery) =>
    ['stocktakes', 'one', id, 'lines', query] as const,
  stocktakeSheet: (id: string) => ['stocktakes', 'one', id, 'sheet'] as const,
  // Items and their variants (DESIGN §22), under the products: a variant is a product, so a change
  // to an item refreshes the products and a product's change refreshes the items.
  items: ['products', 'items'] as const,
  itemPage: (query: ItemQuery) => ['products', 'items', 'page', query] as const,
  item: (id: string) => ['products', 'items', 'one', id] as const,
  // Suppliers' bills and payments (DESIGN §20): a payment changes its bills, so payments sit under them.
  bills: ['bills'] as const,
  billPage: (query: BillQuery) => ['bills', 'page', query] as const,
  bill: (id: string) => ['bills', 'one', id] as const,
  supplierPayments: (supplier: string) => ['bills', 'payments', supplier] as const,
};
