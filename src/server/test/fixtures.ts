import { type Customer, type CustomerInput, CustomerResponse } from '../../shared/customers';
import { type Sale, type SaleInput, SaleResponse } from '../../shared/sales';
import {
  type StoreSettings,
  type StoreSettingsInput,
  StoreSettingsResponse,
  type TaxRate,
  type TaxRateInput,
  TaxRateResponse,
} from '../../shared/store';
import { type Account, type Answer, parsed, type TestApp, unique as tag } from './harness';

/**
 * Test data built the way a user would build it (through the API, as the account a test names),
 * one factory per kind taking overrides, so a test says only what matters to it. Each test file
 * binds them to its app once: `const { sell, stockOf } = fixtures(() => t)`.
 */

export { unique as tag } from './harness';

/** A sale's body without how it is paid (a sale that must succeed is paid by card unless it says). */
export type SaleBody = Omit<SaleInput, 'payment' | 'payments'> &
  Partial<Pick<SaleInput, 'payment' | 'payments'>>;

/** The item at `index` of a list an answer holds, failing the test when the list is shorter. */
export function nth<T>(list: readonly T[], index = 0): T {
  if (index >= list.length) throw new Error(`Expected an item at ${index}, the list has ${list.length}.`);
  return list[index] as T;
}

/** Fails the test with the answer unless the call answered `status`. */
function expectStatus(answer: Answer, status: number) {
  if (answer.status !== status)
    throw new Error(`Expected ${status}, the server answered ${answer.status}: ${answer.text}`);
}

export function fixtures(app: () => TestApp) {
  /** The stock a product's row keeps. */
  const stockOf = async (productId: string) =>
    (await app().sql<{ stock: number }>('select stock from products where id = $1', [productId]))[0]?.stock;

  /** The sum of a product's stock movements (its ledger), which the row must always equal. */
  const ledgerOf = async (productId: string) =>
    Number(
      (
        await app().sql<{ n: string }>(
          'select coalesce(sum(quantity), 0)::text as n from stock_movements where product_id = $1',
          [productId],
        )
      )[0]?.n,
    );

  /** POST /api/sales as `who`, the body as given: the answer, for a test that judges it. */
  const sell = (who: Account, body: unknown, headers: Record<string, string> = {}) =>
    app().call('POST', '/api/sales', { token: who.token, body, headers });

  /** A sale that must be taken (201), paid by card unless `body` says how: its receipt. */
  const sold = async (who: Account, body: SaleBody, headers: Record<string, string> = {}): Promise<Sale> => {
    const paid = body.payment || body.payments ? body : { ...body, payment: { method: 'card' as const } };
    const answer = await sell(who, paid, headers);
    expectStatus(answer, 201);
    return parsed(answer, SaleResponse).sale;
  };

  /** A customer created by `who` (the sales rep unless given), named uniquely unless given a name. */
  const customer = async (
    overrides: Partial<CustomerInput> = {},
    who: Account = app().as.salesRep,
  ): Promise<Customer> => {
    const answer = await app().call('POST', '/api/customers', {
      token: who.token,
      body: { name: `Customer ${tag()}`, ...overrides },
    });
    expectStatus(answer, 201);
    return parsed(answer, CustomerResponse).customer;
  };

  /** A tax rate created by an admin, named uniquely unless given a name. */
  const taxRate = async (overrides: Partial<TaxRateInput> = {}): Promise<TaxRate> => {
    const answer = await app().call('POST', '/api/tax-rates', {
      token: app().as.admin.token,
      body: { name: `Rate ${tag()}`, rate: 5, ...overrides },
    });
    expectStatus(answer, 201);
    return parsed(answer, TaxRateResponse).taxRate;
  };

  /** The store's settings changed by an admin: the settings as saved. */
  const storeSettings = async (values: StoreSettingsInput): Promise<StoreSettings> => {
    const answer = await app().call('PUT', '/api/settings/store', {
      token: app().as.admin.token,
      body: values,
    });
    expectStatus(answer, 200);
    return parsed(answer, StoreSettingsResponse).store;
  };

  return { stockOf, ledgerOf, sell, sold, customer, taxRate, storeSettings };
}
