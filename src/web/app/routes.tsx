import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import type { Role } from '../../shared/roles';
import { LogoutPage } from '../features/auth/logout-page';
import { UnauthorizedPage } from '../features/auth/unauthorized-page';
import { prefetchCatalogue } from '../features/catalogue/catalogue-api';
import { getSession } from '../lib/session';
import { CrashPage, FullPageLoading, NotFoundPage } from './error-pages';
import { RequireRole, RootRedirect } from './guard';
import { guardDecision } from './navigation';

// Every screen but the tiny ones is its own chunk, so the login page downloads only what it needs.
const landing = () => import('../features/landing/landing-page').then((m) => ({ Component: m.LandingPage }));
const login = () => import('../features/auth/login-page').then((m) => ({ Component: m.LoginPage }));
const shell = () => import('./shell').then((m) => ({ Component: m.AppShell }));
const adminDashboard = () =>
  import('../features/dashboard/admin-dashboard-page').then((m) => ({ Component: m.AdminDashboardPage }));
const superDashboard = () =>
  import('../features/dashboard/super-dashboard-page').then((m) => ({ Component: m.SuperDashboardPage }));
const products = () =>
  import('../features/products/products-page').then((m) => ({ Component: m.ProductsPage }));
const items = () => import('../features/items/items-page').then((m) => ({ Component: m.ItemsPage }));
const itemEditor = () =>
  import('../features/items/item-editor-page').then((m) => ({ Component: m.ItemEditorPage }));
const productsImport = () =>
  import('../features/imports/import-page').then((m) => ({ Component: m.ImportPage }));
const categories = () =>
  import('../features/categories/categories-page').then((m) => ({ Component: m.CategoriesPage }));
const suppliers = () =>
  import('../features/suppliers/suppliers-page').then((m) => ({ Component: m.SuppliersPage }));
const locations = () =>
  import('../features/locations/locations-page').then((m) => ({ Component: m.LocationsPage }));
const orders = () => import('../features/orders/orders-page').then((m) => ({ Component: m.OrdersPage }));
const users = () => import('../features/users/users-page').then((m) => ({ Component: m.UsersPage }));
const catalogue = () =>
  import('../features/catalogue/catalogue-page').then((m) => ({ Component: m.CataloguePage }));
const changePassword = () =>
  import('../features/profile/change-password-page').then((m) => ({ Component: m.ChangePasswordPage }));
const profile = () => import('../features/profile/profile-page').then((m) => ({ Component: m.ProfilePage }));
const stock = () => import('../features/stock/stock-page').then((m) => ({ Component: m.StockPage }));
const stockCheck = () =>
  import('../features/stock/stock-check-page').then((m) => ({ Component: m.StockCheckPage }));
const activity = () =>
  import('../features/activity/activity-page').then((m) => ({ Component: m.ActivityPage }));
const purchaseOrders = () =>
  import('../features/purchasing/purchase-orders-page').then((m) => ({ Component: m.PurchaseOrdersPage }));
const purchaseOrder = () =>
  import('../features/purchasing/purchase-order-page').then((m) => ({ Component: m.PurchaseOrderPage }));
const purchaseOrderPrint = () =>
  import('../features/purchasing/purchase-order-print-page').then((m) => ({
    Component: m.PurchaseOrderPrintPage,
  }));
const bills = () => import('../features/bills/bills-page').then((m) => ({ Component: m.BillsPage }));
const bill = () => import('../features/bills/bill-page').then((m) => ({ Component: m.BillPage }));
const newBill = () => import('../features/bills/bill-form-page').then((m) => ({ Component: m.NewBillPage }));
const editBill = () =>
  import('../features/bills/bill-form-page').then((m) => ({ Component: m.EditBillPage }));
const payBills = () =>
  import('../features/bills/pay-bills-page').then((m) => ({ Component: m.PayBillsPage }));
const reorder = () =>
  import('../features/purchasing/reorder-page').then((m) => ({ Component: m.ReorderPage }));
const transfers = () =>
  import('../features/transfers/transfers-page').then((m) => ({ Component: m.TransfersPage }));
const transfer = () =>
  import('../features/transfers/transfer-page').then((m) => ({ Component: m.TransferPage }));
const transferForm = () =>
  import('../features/transfers/transfer-form-page').then((m) => ({ Component: m.TransferFormPage }));
const packingList = () =>
  import('../features/transfers/packing-list-page').then((m) => ({ Component: m.PackingListPage }));
const stocktakes = () =>
  import('../features/stocktakes/stocktakes-page').then((m) => ({ Component: m.StocktakesPage }));
const newStocktake = () =>
  import('../features/stocktakes/new-stocktake-page').then((m) => ({ Component: m.NewStocktakePage }));
const stocktake = () =>
  import('../features/stocktakes/stocktake-page').then((m) => ({ Component: m.StocktakePage }));
const openStocktakes = () =>
  import('../features/stocktakes/open-stocktakes-page').then((m) => ({ Component: m.OpenStocktakesPage }));
const stocktakeCount = () =>
  import('../features/stocktakes/count-page').then((m) => ({ Component: m.CountPage }));
const countSheet = () =>
  import('../features/stocktakes/count-sheet-page').then((m) => ({ Component: m.CountSheetPage }));
const reports = () => import('../features/reports/reports-page').then((m) => ({ Component: m.ReportsPage }));
const accounts = () =>
  import('../features/accounting/accounts-page').then((m) => ({ Component: m.AccountsPage }));
const ledger = () => import('../features/accounting/ledger-page').then((m) => ({ Component: m.LedgerPage }));
const journal = () =>
  import('../features/accounting/journal-page').then((m) => ({ Component: m.JournalPage }));
const journalEntry = () =>
  import('../features/accounting/entry-page').then((m) => ({ Component: m.EntryPage }));
const manualEntry = () =>
  import('../features/accounting/manual-entry-page').then((m) => ({ Component: m.ManualEntryPage }));
const trialBalance = () =>
  import('../features/accounting/trial-balance-page').then((m) => ({ Component: m.TrialBalancePage }));
const profitAndLoss = () =>
  import('../features/accounting/profit-and-loss-page').then((m) => ({ Component: m.ProfitAndLossPage }));
const balanceSheet = () =>
  import('../features/accounting/balance-sheet-page').then((m) => ({ Component: m.BalanceSheetPage }));
const booksCheck = () =>
  import('../features/accounting/books-check-page').then((m) => ({ Component: m.BooksCheckPage }));
const lockDate = () =>
  import('../features/accounting/lock-date-page').then((m) => ({ Component: m.LockDatePage }));
const payables = () =>
  import('../features/accounting/payables-page').then((m) => ({ Component: m.PayablesPage }));
const receivedNotBilled = () =>
  import('../features/accounting/received-not-billed-page').then((m) => ({
    Component: m.ReceivedNotBilledPage,
  }));
const taxReturn = () =>
  import('../features/accounting/tax-return-page').then((m) => ({ Component: m.TaxReturnPage }));
const accountingExport = () =>
  import('../features/accounting/export-page').then((m) => ({ Component: m.ExportPage }));
const customers = () =>
  import('../features/customers/customers-page').then((m) => ({ Component: m.CustomersPage }));
const customer = () =>
  import('../features/customers/customer-page').then((m) => ({ Component: m.CustomerPage }));
const counter = () => import('../features/sales/counter-page').then((m) => ({ Component: m.CounterPage }));
const receipt = () => import('../features/sales/receipt-page').then((m) => ({ Component: m.ReceiptPage }));
const refunds = () => import('../features/refunds/refund-page').then((m) => ({ Component: m.RefundPage }));
const refundReceipt = () =>
  import('../features/refunds/refund-receipt-page').then((m) => ({ Component: m.RefundReceiptPage }));
const sales = () => import('../features/sales/sales-page').then((m) => ({ Component: m.SalesPage }));
const offlineReview = () =>
  import('../features/sales/offline-review-page').then((m) => ({ Component: m.OfflineReviewPage }));
const tillSessions = () =>
  import('../features/till/sessions-page').then((m) => ({ Component: m.SessionsPage }));
const tillReport = () =>
  import('../features/till/session-report-page').then((m) => ({ Component: m.SessionReportPage }));
const expiringLots = () =>
  import('../features/lots/expiring-page').then((m) => ({ Component: m.ExpiringPage }));
const lotTrace = () => import('../features/lots/lot-trace-page').then((m) => ({ Component: m.LotTracePage }));
const storeSettings = () =>
  import('../features/store/store-settings-page').then((m) => ({ Component: m.StoreSettingsPage }));
const taxRates = () =>
  import('../features/store/tax-rates-page').then((m) => ({ Component: m.TaxRatesPage }));

/**
 * A page whose data starts loading with its code (STYLE: query factories): `prefetch` asks for what
 * the page shows at the address, into the app's query cache, and the page finds it there.
 */
type Page = RouteObject & { prefetch?: (client: QueryClient, url: URL) => void };

/**
 * A role area: the guard, then the shell, then its pages (a crash keeps the sidebar). A page's
 * prefetch runs as its loader, beside its code, only for a user the guard lets in.
 */
function area(path: string, roles: readonly Role[], pages: Page[], client: QueryClient): RouteObject {
  const withData = pages.map(({ prefetch, ...page }): RouteObject => {
    if (!prefetch) return page;
    return {
      ...page,
      loader: ({ request }) => {
        if (guardDecision(getSession(), roles).allow) prefetch(client, new URL(request.url));
        return null;
      },
    } as RouteObject;
  });
  return {
    path,
    element: <RequireRole roles={roles} />,
    children: [
      {
        lazy: shell,
        children: [
          {
            errorElement: <CrashPage inShell />,
            children: [...withData, { path: '*', element: <NotFoundPage inShell /> }],
          },
        ],
      },
    ],
  };
}

/** The orders, customers, sales, refunds and till pages: the staff's and the admin's alike. */
const storePages: Page[] = [
  { path: 'orders', lazy: orders },
  { path: 'customers', lazy: customers },
  { path: 'customers/:id', lazy: customer },
  { path: 'sales', lazy: sales },
  { path: 'sales/new', lazy: counter },
  { path: 'sales/:id', lazy: receipt },
  { path: 'refunds', lazy: refunds },
  { path: 'refunds/:id', lazy: refundReceipt },
  { path: 'till/sessions', lazy: tillSessions },
  { path: 'till/sessions/:id', lazy: tillReport },
  // A stocktake's count screen and paper sheet (DESIGN §18): every counting role, in its own area.
  { path: 'stocktakes/:id/count', lazy: stocktakeCount },
  { path: 'stocktakes/:id/sheet', lazy: countSheet },
];

const staffPages: Page[] = [
  { index: true, lazy: catalogue, prefetch: prefetchCatalogue },
  ...storePages,
  { path: 'stocktakes', lazy: openStocktakes },
  { path: 'profile', lazy: profile },
];

const superAdminPages: Page[] = [
  { index: true, lazy: superDashboard },
  { path: 'users', lazy: users },
  { path: 'activity', lazy: activity },
  { path: 'profile', lazy: profile },
];

const adminPages: Page[] = [
  { index: true, lazy: adminDashboard },
  { path: 'products', lazy: products },
  { path: 'products/:id/stock', lazy: stock },
  { path: 'products/import', lazy: productsImport },
  { path: 'products/import/:id', lazy: productsImport },
  // Items and their variants (DESIGN §22).
  { path: 'items', lazy: items },
  { path: 'items/new', lazy: itemEditor },
  { path: 'items/:id', lazy: itemEditor },
  { path: 'stock-check', lazy: stockCheck },
  { path: 'lots/expiring', lazy: expiringLots },
  { path: 'lots/:id', lazy: lotTrace },
  { path: 'categories', lazy: categories },
  { path: 'supplier', lazy: suppliers },
  { path: 'locations', lazy: locations },
  { path: 'purchase-orders', lazy: purchaseOrders },
  { path: 'purchase-orders/new', lazy: purchaseOrder },
  { path: 'purchase-orders/:id', lazy: purchaseOrder },
  { path: 'purchase-orders/:id/print', lazy: purchaseOrderPrint },
  { path: 'reorder', lazy: reorder },
  // Suppliers' bills and payments (DESIGN §20).
  { path: 'bills', lazy: bills },
  { path: 'bills/new', lazy: newBill },
  { path: 'bills/pay', lazy: payBills },
  { path: 'bills/:id', lazy: bill },
  { path: 'bills/:id/edit', lazy: editBill },
  { path: 'transfers', lazy: transfers },
  { path: 'transfers/new', lazy: transferForm },
  { path: 'transfers/:id', lazy: transfer },
  { path: 'transfers/:id/edit', lazy: transferForm },
  { path: 'transfers/:id/packing-list', lazy: packingList },
  { path: 'stocktakes', lazy: stocktakes },
  { path: 'stocktakes/new', lazy: newStocktake },
  { path: 'stocktakes/:id', lazy: stocktake },
  { path: 'reports', lazy: reports },
  // The books (DESIGN §19): the chart of accounts first, then the journal and the reports.
  { path: 'accounting', lazy: accounts },
  { path: 'accounting/accounts/:id', lazy: ledger },
  { path: 'accounting/journal', lazy: journal },
  { path: 'accounting/journal/new', lazy: manualEntry },
  { path: 'accounting/journal/:id', lazy: journalEntry },
  { path: 'accounting/trial-balance', lazy: trialBalance },
  { path: 'accounting/profit-and-loss', lazy: profitAndLoss },
  { path: 'accounting/balance-sheet', lazy: balanceSheet },
  { path: 'accounting/check', lazy: booksCheck },
  { path: 'accounting/lock-date', lazy: lockDate },
  { path: 'accounting/payables', lazy: payables },
  { path: 'accounting/received-not-billed', lazy: receivedNotBilled },
  { path: 'accounting/tax-return', lazy: taxReturn },
  { path: 'accounting/export', lazy: accountingExport },
  // The offline sales to review (DESIGN §21): a fixed path, so the store pages' `sales/:id` never takes it.
  { path: 'sales/offline-review', lazy: offlineReview },
  ...storePages,
  { path: 'users', lazy: users },
  { path: 'store', lazy: storeSettings },
  { path: 'tax-rates', lazy: taxRates },
  { path: 'activity', lazy: activity },
  { path: 'profile', lazy: profile },
];

/** The app's routes; pages that prefetch load their data into `client`, the app's query client. */
export function appRoutes(client: QueryClient): RouteObject[] {
  return [
    {
      errorElement: <CrashPage />,
      HydrateFallback: FullPageLoading,
      children: [
        { index: true, element: <RootRedirect /> },
        { path: 'home', lazy: landing },
        { path: 'retail', lazy: landing },
        { path: 'login', lazy: login },
        { path: 'logout', element: <LogoutPage /> },
        { path: 'change-password', lazy: changePassword },
        { path: 'unauthorized', element: <UnauthorizedPage /> },
        area('superAdmin-dashboard', ['superAdmin'], superAdminPages, client),
        area('admin-dashboard', ['admin'], adminPages, client),
        area('employee-dashboard', ['user'], staffPages, client),
        area('salesRep-dashboard', ['salesRep'], staffPages, client),
        area('medicalRep-dashboard', ['medicalRep'], staffPages, client),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}
