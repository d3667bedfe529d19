import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { variantName } from '../../../shared/items';
import {
  ItemReportResponse,
  ProductReportResponse,
  REPORT_CSV_HEADERS,
  SalesReportResponse,
} from '../../../shared/reports';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

/** The cents of a figure the reports answer as a JSON number of two decimals. */
const cents = (value: number) => Math.round(value * 100);

describe.each(targets)('the items report on $name', (target) => {
  let t: TestApp;
  const { sold, taxRate } = fixtures(() => t);
  const get = (url: string) => t.call('GET', url, { token: t.as.admin.token });
  const range = 'from=2022-05-09&to=2022-05-11';
  /** The story's item, its variants and the product on its own. */
  const story = { item: '', itemName: '', variants: [] as string[], plain: '', other: '' };

  /**
   * A T-shirt item (Size × Colour) whose three variants sell 5, 3 and 1 units at 8.875 % tax with
   * a 3 % sale discount (odd cents), one line partly returned; a plain product sold too, and a
   * second item sold on a day outside the range. Each product opens with 50 units (its opening
   * movement, written by the database); all sold at the counter, then dated in May 2022.
   */
  beforeAll(async () => {
    t = await startApp(target);
    const rate = await taxRate({ rate: 8.875 });
    const [category] = await t.sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
      `Clothing ${tag()}`,
    ]);
    const [supplier] = await t.sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
      `Supplier ${tag()}`,
    ]);
    const options = [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Black', 'White'] },
    ];
    const item = async (name: string) =>
      (
        await t.sql<{ id: string }>(
          `insert into items (name, category_id, supplier_id, options) values ($1, $2, $3, $4::jsonb) returning id`,
          [name, category?.id, supplier?.id, JSON.stringify(options)],
        )
      )[0]?.id as string;
    const variant = async (itemId: string, itemName: string, values: Record<string, string>, price: string) =>
      (
        await t.sql<{ id: string }>(
          `insert into products (name, price, stock, category_id, supplier_id, item_id, option_values, tax_rate_id)
           values ($1, $2, 50, $3, $4, $5, $6::jsonb, $7) returning id`,
          [
            variantName(itemName, options, values),
            price,
            category?.id,
            supplier?.id,
            itemId,
            JSON.stringify(values),
            rate._id,
          ],
        )
      )[0]?.id as string;
    story.itemName = `Classic Tee ${tag()}`;
    story.item = await item(story.itemName);
    story.variants = [
      await variant(story.item, story.itemName, { Size: 'S', Colour: 'Black' }, '12.99'),
      await variant(story.item, story.itemName, { Size: 'M', Colour: 'Black' }, '12.99'),
      await variant(story.item, story.itemName, { Size: 'L', Colour: 'White' }, '13.49'),
    ];
    const otherName = `Hoodie ${tag()}`;
    const other = await item(otherName);
    story.other = await variant(other, otherName, { Size: 'M', Colour: 'White' }, '29.00');
    const [plain] = await t.sql<{ id: string }>(
      `insert into products (name, price, stock, category_id, supplier_id, tax_rate_id)
       values ($1, '7.35', 50, $2, $3, $4) returning id`,
      [`Canvas Tote ${tag()}`, category?.id, supplier?.id, rate._id],
    );
    story.plain = plain?.id as string;

    const [small, medium, large] = story.variants as [string, string, string];
    const dated = async (sale: { _id: string }, at: string) => {
      await t.sql('update orders set order_date = $2 where sale_id = $1', [sale._id, at]);
    };
    const first = await sold(t.as.salesRep, {
      lines: [
        { productId: small, quantity: 3 },
        { productId: medium, quantity: 2 },
        { productId: story.plain, quantity: 4 },
      ],
      discount: { type: 'percent', value: 3 },
    });
    await dated(first, '2022-05-09T10:00:00Z');
    const second = await sold(t.as.user, {
      lines: [
        { productId: small, quantity: 2 },
        { productId: large, quantity: 1 },
        { productId: medium, quantity: 1 },
      ],
      discount: { type: 'percent', value: 3 },
    });
    await dated(second, '2022-05-11T16:30:00Z');
    // One of the first sale's small tees comes back.
    const [back] = await t.sql<{ id: string }>(
      'select id from orders where sale_id = $1 and product_id = $2',
      [first._id, small],
    );
    const returned = await t.call('POST', `/api/order/${back?.id}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(returned.status, returned.text).toBe(200);
    const outside = await sold(t.as.user, { lines: [{ productId: story.other, quantity: 2 }] });
    await dated(outside, '2022-05-12T09:00:00Z');
  });
  afterAll(() => t?.close());

  it('GET /api/reports/items sums each item’s variants exactly as their products-report lines, to the cent', async () => {
    const res = await get(`/api/reports/items?${range}&limit=100`);
    expect(res.status, res.text).toBe(200);
    expect(ItemReportResponse.parse(res.body)).toEqual(res.body);
    const { items } = parsed(res, ItemReportResponse);
    const products = parsed(
      await get(`/api/reports/products?${range}&limit=100`),
      ProductReportResponse,
    ).products;
    const [small, medium, large] = story.variants;
    // Each variant stays a line of the products report, naming its item.
    for (const id of story.variants)
      expect(products.find((line) => line.product._id === id)?.item).toEqual({
        _id: story.item,
        name: story.itemName,
      });
    expect(products.find((line) => line.product._id === story.plain)?.item).toBeNull();
    expect(products.map((line) => line.product._id)).not.toContain(story.other);
    const variants = products.filter((line) => line.item?._id === story.item);
    expect(variants.map((line) => [line.product._id, line.units])).toEqual([
      [small, 4],
      [medium, 3],
      [large, 1],
    ]);

    const tee = items.find((line) => line.item?._id === story.item);
    expect(tee).toEqual({
      item: { _id: story.item, name: story.itemName },
      product: null,
      category: { name: expect.stringMatching(/^Clothing /) },
      variants: 3,
      units: 8,
      revenue: expect.any(Number),
      margin: expect.any(Number),
    });
    const sum = (figure: 'revenue' | 'margin') =>
      variants.reduce((total, line) => total + cents(line[figure]), 0);
    expect(cents(tee?.revenue ?? 0)).toBe(sum('revenue'));
    expect(cents(tee?.margin ?? 0)).toBe(sum('margin'));
    // Odd cents: a 3 % discount on every line, one unit given back pro rata.
    expect(sum('revenue') % 100).not.toBe(0);

    const plainLine = products.find((line) => line.product._id === story.plain);
    expect(items.find((line) => line.product?._id === story.plain)).toEqual({
      item: null,
      product: plainLine?.product,
      category: plainLine?.category,
      variants: 1,
      units: 4,
      revenue: plainLine?.revenue,
      margin: plainLine?.margin,
    });
    // The item sold only outside the range is not listed.
    expect(items).toHaveLength(2);

    // Together, the lines are the range's sales.
    const totals = parsed(await get(`/api/reports/sales?${range}`), SalesReportResponse).totals;
    expect(totals.tax).toBeGreaterThan(0);
    expect(totals.discount).toBeGreaterThan(0);
    expect(items.reduce((units, line) => units + line.units, 0)).toBe(totals.units);
    expect(items.reduce((revenue, line) => revenue + cents(line.revenue), 0)).toBe(cents(totals.revenue));
    expect(items.reduce((margin, line) => margin + cents(line.margin), 0)).toBe(cents(totals.margin));
  });

  it('ranks by revenue, units or margin with a limit, and answers a range without sales empty', async () => {
    const names = async (query: string) =>
      parsed(await get(`/api/reports/items?${range}&${query}`), ItemReportResponse).items.map(
        (line) => line.item?._id ?? line.product?._id,
      );
    expect(await names('sort=revenue')).toEqual([story.item, story.plain]);
    expect(await names('sort=units')).toEqual([story.item, story.plain]);
    expect(await names('sort=margin&limit=1')).toEqual([story.item]);
    const wider = parsed(await get('/api/reports/items?from=2022-05-09&to=2022-05-12'), ItemReportResponse);
    expect(wider.items.map((line) => line.item?._id ?? line.product?._id)).toContain(
      (await t.sql<{ item_id: string }>('select item_id from products where id = $1', [story.other]))[0]
        ?.item_id,
    );
    const none = await get('/api/reports/items?from=2019-01-01&to=2019-01-31');
    expect(parsed(none, ItemReportResponse)).toMatchObject({
      from: '2019-01-01',
      sort: 'revenue',
      items: [],
    });
  });

  it('at the default location answers what the store-wide report answers', async () => {
    const [main] = await t.sql<{ id: string }>('select default_location() as id');
    const store = parsed(await get(`/api/reports/items?${range}&sort=units`), ItemReportResponse);
    const there = parsed(
      await get(`/api/reports/items?${range}&sort=units&location=${main?.id}`),
      ItemReportResponse,
    );
    expect(there.items).toEqual(store.items);
    expect(there.location?._id).toBe(main?.id);
  });

  it('answers CSV with a header and a plain row per line', async () => {
    const res = await get(`/api/reports/items?${range}&format=csv`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="items-by-revenue-2022-05-09-to-2022-05-11.csv"',
    );
    const json = parsed(await get(`/api/reports/items?${range}`), ItemReportResponse).items;
    expect(parseCsv(res.text)).toEqual([
      [...REPORT_CSV_HEADERS.items],
      ...json.map((line) => [
        line.item?._id ?? '',
        line.product?._id ?? '',
        line.item?.name ?? line.product?.name ?? '',
        line.category.name,
        String(line.variants),
        String(line.units),
        String(line.revenue),
        String(line.margin),
      ]),
    ]);
  });

  it.each([
    ['an impossible date', 'from=2022-02-30&to=2022-03-01', 'That date does not exist.'],
    ['year 0', 'from=0000-01-01', 'Dates must be between 1900 and 9999.'],
    ['a date in another form', 'to=05/11/2022', 'Dates look like 2025-01-31.'],
    ['from after to', 'from=2022-05-11&to=2022-05-09', 'The from date must be on or before the to date.'],
    ['more than 3 years', 'from=2020-01-01&to=2023-01-01', 'A report covers at most 3 years.'],
    ['two froms', 'from=2022-05-09&from=2022-05-10', 'from: Dates must be text.'],
    ['an unknown sort', 'sort=name', 'sort must be revenue, units or margin.'],
    ['two sorts', 'sort=units&sort=margin', 'sort must be revenue, units or margin.'],
    ['a limit that is not a number', 'limit=NaN', 'limit must be a number.'],
    ['a limit of two values', 'limit=1&limit=2', 'limit must be a number.'],
    ['a fractional limit', 'limit=2.5', 'limit must be a whole number.'],
    ['a limit of 0', 'limit=0', 'limit must be at least 1.'],
    ['a negative limit', 'limit=-1', 'limit must be at least 1.'],
    ['a huge limit', 'limit=1e9', 'limit must be at most 100.'],
    ['an unknown format', 'format=xlsx', 'format must be json or csv.'],
    ['a NUL in a date', 'from=2022-05-09%00', 'must not contain NUL'],
    ['a date of 10,000 characters', `from=${'9'.repeat(10_000)}`, 'Dates look like 2025-01-31.'],
  ])('refuses %s with 400 and one sentence', async (_label, query, sentence) => {
    const res = await get(`/api/reports/items?${query}`);
    expect(res.status, res.text).toBe(400);
    expect(parsed(res, ApiError).error).toContain(sentence);
  });

  it('answers 404 for a location that is not one', async () => {
    for (const location of ['00000000-0000-0000-0000-000000000000', 'not-an-id']) {
      const res = await get(`/api/reports/items?${range}&location=${location}`);
      expect(res.status, res.text).toBe(404);
    }
  });
});
