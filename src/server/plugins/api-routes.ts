import type { FastifyInstance } from 'fastify';
import { authenticate, guardSignedInCheck } from '../lib/auth';
import { accountingRoutes } from '../modules/accounting/accounting.routes';
import { auditRoutes } from '../modules/audit/audit.routes';
import { authRoutes } from '../modules/auth/auth.routes';
import { billsRoutes } from '../modules/bills/bills.routes';
import { categoriesRoutes } from '../modules/categories/categories.routes';
import { customersRoutes } from '../modules/customers/customers.routes';
import { dashboardRoutes } from '../modules/dashboard/dashboard.routes';
import { healthRoutes } from '../modules/health/health.routes';
import { importApplyRoutes } from '../modules/imports/apply.routes';
import { importCheckRoutes } from '../modules/imports/check.routes';
import { importsRoutes } from '../modules/imports/imports.routes';
import { itemsRoutes } from '../modules/items/items.routes';
import { locationsRoutes } from '../modules/locations/locations.routes';
import { lotsRoutes } from '../modules/lots/lots.routes';
import { ordersRoutes } from '../modules/orders/orders.routes';
import { productsRoutes } from '../modules/products/products.routes';
import { purchasingRoutes } from '../modules/purchasing/purchasing.routes';
import { refundsRoutes } from '../modules/refunds/refunds.routes';
import { reportsRoutes } from '../modules/reports/reports.routes';
import { salesRoutes } from '../modules/sales/sales.routes';
import { stockRoutes } from '../modules/stock/stock.routes';
import { stocktakesRoutes } from '../modules/stocktakes/stocktakes.routes';
import { storeRoutes } from '../modules/store/store.routes';
import { suppliersRoutes } from '../modules/suppliers/suppliers.routes';
import { tillRoutes } from '../modules/till/till.routes';
import { transfersRoutes } from '../modules/transfers/transfers.routes';
import { usersRoutes } from '../modules/users/users.routes';

/** Every module's routes under /api, each request's user read from its token first. */
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticate);
      api.addHook('onSend', guardSignedInCheck);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(dashboardRoutes);
      await api.register(productsRoutes);
      await api.register(categoriesRoutes);
      await api.register(suppliersRoutes);
      await api.register(usersRoutes);
      await api.register(ordersRoutes);
      await api.register(stockRoutes);
      await api.register(auditRoutes);
      await api.register(purchasingRoutes);
      await api.register(reportsRoutes);
      await api.register(customersRoutes);
      await api.register(salesRoutes);
      await api.register(storeRoutes);
      await api.register(tillRoutes);
      await api.register(refundsRoutes);
      await api.register(importsRoutes);
      await api.register(importCheckRoutes);
      await api.register(importApplyRoutes);
      await api.register(lotsRoutes);
      await api.register(transfersRoutes);
      await api.register(locationsRoutes);
      await api.register(stocktakesRoutes);
      await api.register(itemsRoutes);
      await api.register(accountingRoutes);
      await api.register(billsRoutes);
    },
    { prefix: '/api' },
  );
}
