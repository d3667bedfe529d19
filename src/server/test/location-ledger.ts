import type { Runner } from '../db/connection';

/**
 * Every way the products `productIds` break the rules of stock per location (DESIGN §17, decision
 * 0043), as sentences (empty: they hold): each (product, location) and (lot, location) row = Σ
 * its movements there ≥ 0; a product's stock = Σ over its locations = Σ its movements; a lot =
 * Σ over its locations; and Σ over locations + units in transit = Σ movements that are not
 * transferOut or transferIn; and the values of DESIGN §19 likewise (each location's and product's
 * stock_value = Σ its movements' values, 0 with the stock, the product's cost its average).
 * Computed apart from GET /api/stock/check, so the two check each other.
 */
export async function locationLedgerProblems(
  q: Pick<Runner, 'query'>,
  productIds: readonly string[],
): Promise<string[]> {
  const rows = await q.query<{ problem: string }>(
    `with p as (select id, stock from products where id = any($1::uuid[]))
     select format('product %s at %s: %s held, %s moved', s.product_id, s.location_id, s.stock,
                   (select coalesce(sum(quantity), 0) from stock_movements m
                    where m.product_id = s.product_id and m.location_id = s.location_id)) as problem
     from location_stock s join p on p.id = s.product_id
     where s.stock < 0 or s.stock <> (select coalesce(sum(quantity), 0) from stock_movements m
                                      where m.product_id = s.product_id and m.location_id = s.location_id)
     union all
     select format('product %s moved %s at %s and holds no row there', m.product_id, sum(m.quantity), m.location_id)
     from stock_movements m join p on p.id = m.product_id
     where not exists (select 1 from location_stock s where s.product_id = m.product_id and s.location_id = m.location_id)
     group by m.product_id, m.location_id having sum(m.quantity) <> 0
     union all
     select format('lot %s at %s: %s held, %s moved', s.lot_id, s.location_id, s.quantity,
                   (select coalesce(sum(quantity), 0) from stock_movements m
                    where m.lot_id = s.lot_id and m.location_id = s.location_id))
     from lot_stock s join p on p.id = s.product_id
     where s.quantity < 0 or s.quantity <> (select coalesce(sum(quantity), 0) from stock_movements m
                                            where m.lot_id = s.lot_id and m.location_id = s.location_id)
     union all
     select format('lot %s: %s, %s over its locations', l.id, l.quantity,
                   (select coalesce(sum(quantity), 0) from lot_stock s where s.lot_id = l.id))
     from lots l join p on p.id = l.product_id
     where l.quantity <> (select coalesce(sum(quantity), 0) from lot_stock s where s.lot_id = l.id)
     union all
     select format('product %s: stock %s, %s over locations, %s moved, %s in transit, %s moved outside transfers',
                   p.id, p.stock, x.located, x.moved, x.transit, x.outside)
     from p cross join lateral (
       select (select coalesce(sum(stock), 0) from location_stock where product_id = p.id) as located,
              (select coalesce(sum(quantity), 0) from stock_movements where product_id = p.id) as moved,
              (select coalesce(sum(sent - received - lost - returned), 0) from transfer_lines
               where product_id = p.id) as transit,
              (select coalesce(sum(quantity), 0) from stock_movements
               where product_id = p.id and kind not in ('transferOut', 'transferIn')) as outside) x
     where p.stock <> x.located or p.stock <> x.moved or x.located + x.transit <> x.outside
     union all
     -- DESIGN §19: each value is the sum of its movements' values, 0 with the stock, and the
     -- product's the sum of its locations'; its cost is value ÷ stock while there is stock.
     select format('product %s at %s: worth %s, its movements %s', s.product_id, s.location_id, s.stock_value,
                   (select coalesce(sum(value), 0) from stock_movements m
                    where m.product_id = s.product_id and m.location_id = s.location_id))
     from location_stock s join p on p.id = s.product_id
     where s.stock_value <> (select coalesce(sum(value), 0) from stock_movements m
                             where m.product_id = s.product_id and m.location_id = s.location_id)
        or s.stock_value < 0 or (s.stock = 0 and s.stock_value <> 0)
     union all
     select format('product %s: worth %s, %s over locations, %s moved, cost %s', p.id, p.stock_value, x.located,
                   x.moved, p.cost)
     from (select id, stock, stock_value, cost from products where id = any($1::uuid[])) p cross join lateral (
       select (select coalesce(sum(stock_value), 0) from location_stock where product_id = p.id) as located,
              (select coalesce(sum(value), 0) from stock_movements where product_id = p.id) as moved) x
     where p.stock_value <> x.located or p.stock_value <> x.moved
        or (p.stock > 0 and p.cost is distinct from round(p.stock_value / p.stock, 2)
            and not (p.cost is null and p.stock_value = 0))`,
    [productIds],
  );
  return rows.map((row) => row.problem);
}
