import type { FastifyInstance } from 'fastify';
import { LoginResponse } from '../../shared/auth';
import { centsNumber, isCartProblem, priceCart } from '../../shared/money';
import { ProductListResponse } from '../../shared/products';
import { SaleResponse } from '../../shared/sales';
import { StoreSettingsResponse } from '../../shared/store';
import { SessionListResponse } from '../../shared/till';

type Seller = { email: string; password: string };

/**
 * The demo's sales made offline (DESIGN §21), sent to the app as a counter sends them, after the
 * rest of the demo is in: the seller's device T1-K7Q2 sold four times while its network was down
 * and sent them when it came back —
 * - two waters and a snack, recorded as they were;
 * - more of a product than the Main store held then: the missing units found (reason offline), for review;
 * - a line at a price the product never had: recorded at it, for review (reviewed since, with a note);
 * - a sale of yesterday evening in a session closed meanwhile: recorded outside it, for review.
 */
export async function seedOfflineSales(app: FastifyInstance, seller: Seller, admin: Seller): Promise<void> {
  const call = async <T>(
    token: string | null,
    method: 'GET' | 'POST',
    url: string,
    schema: { parse: (body: unknown) => T },
    body?: unknown,
  ): Promise<T> => {
    const answer = await app.inject({
      method,
      url: `/api${url}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    if (answer.statusCode >= 300)
      throw new Error(`${method} ${url} answered ${answer.statusCode}: ${answer.body}`);
    return schema.parse(answer.json());
  };
  const signIn = async (who: Seller) =>
    (await call(null, 'POST', '/auth/login', LoginResponse, { email: who.email, password: who.password }))
      .token;
  const token = await signIn(seller);
  const { store } = await call(token, 'GET', '/settings/store', StoreSettingsResponse);
  const open = await call(
    token,
    'GET',
    '/register-sessions?status=open&page=1&pageSize=5',
    SessionListResponse,
  );
  const closed = await call(
    token,
    'GET',
    '/register-sessions?status=closed&page=1&pageSize=1',
    SessionListResponse,
  );
  const session = open.sessions[0];
  if (!session) return;
  const { products } = await call(
    token,
    'GET',
    `/products?location=${session.location._id}&active=true&page=1&pageSize=40&sort=name`,
    ProductListResponse,
  );
  const plain = products.filter((product) => product.tracking === 'none' && product.stock > 3);
  // Sold above what was held: a cheap product the shop held few of (a believable oversight).
  const fewest = [...plain].sort((a, b) => a.stock - b.stock || a.price - b.price);
  const short = fewest.find((product) => product.price < 20) ?? fewest[0];
  const [water, snack, priced] = plain.filter((product) => product !== short);
  if (!water || !snack || !short || !priced) return;

  const now = Date.now();
  let counter = 40;
  const sell = async (
    lines: { product: (typeof plain)[number]; quantity: number; unitPrice?: number }[],
    soldAt: number,
    sessionId: string,
    method: 'cash' | 'card',
  ) => {
    counter += 1;
    const sold = lines.map((line) => ({ ...line, unitPrice: line.unitPrice ?? line.product.price }));
    const cart = priceCart({
      lines: sold.map((line) => ({
        unitPrice: line.unitPrice,
        quantity: line.quantity,
        taxRate: line.product.taxRate,
      })),
      pricesIncludeTax: store.pricesIncludeTax,
    });
    if (isCartProblem(cart)) throw new Error('a demo offline sale prices');
    const total = centsNumber(cart.total);
    return call(token, 'POST', '/sales', SaleResponse, {
      lines: sold.map((line) => ({
        productId: line.product._id,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        ...(line.product.taxRate ? { taxRate: line.product.taxRate._id } : {}),
      })),
      payments: [{ method, amount: method === 'cash' ? Math.ceil(total) : total }],
      session: sessionId,
      total,
      offline: {
        id: crypto.randomUUID(),
        soldAt: new Date(soldAt).toISOString(),
        deviceNumber: `T1-K7Q2-${String(counter).padStart(6, '0')}`,
      },
    });
  };
  const minutes = (n: number) => now - n * 60_000;
  await sell(
    [
      { product: water, quantity: 2 },
      { product: snack, quantity: 1 },
    ],
    minutes(52),
    session._id,
    'cash',
  );
  await sell([{ product: short, quantity: short.stock + 2 }], minutes(47), session._id, 'card');
  const mispriced = await sell(
    [
      {
        product: priced,
        quantity: 1,
        unitPrice: Math.max(0.5, Math.round((priced.price - 0.5) * 100) / 100),
      },
    ],
    minutes(41),
    session._id,
    'cash',
  );
  const last = closed.sessions[0];
  if (last?.closedAt) {
    const evening = Math.max(Date.parse(last.closedAt) - 30 * 60_000, now - 20 * 3_600_000);
    await sell([{ product: water, quantity: 1 }], evening, last._id, 'cash');
  }
  // The admin has looked at the price already and said what was done.
  const adminToken = await signIn(admin);
  await call(
    adminToken,
    'POST',
    `/sales/${mispriced.sale._id}/review`,
    { parse: (body: unknown) => body },
    {
      note: 'Shelf label was last week’s promotion price; label replaced, difference accepted.',
    },
  );
}
