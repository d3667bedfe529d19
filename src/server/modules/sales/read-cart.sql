-- sales_read_cart: reads a sale's cart inside its transaction (DESIGN §12, decision 0027), for the
-- signed-in seller: every line with its product, locked in product id order before anything is
-- written (decisions 0015 and 0016: the stock read is the stock the sale takes, and two sales
-- never wait on each other in a circle), its price, cost and the tax rate in force (the product's
-- own, else the store's default), the store's settings, the customer (held against deletion until
-- the sale is written) and the seller. Prices come from the database, never the client; each
-- product answers whether it is active (DESIGN §22: an inactive one is not sold).
--
-- The customer is locked FOR NO KEY UPDATE, so their store credit balance read here is the one the
-- sale spends: a second sale paying with it waits until this one is done (DESIGN §13). The till
-- session is locked FOR SHARE and its status read after the lock: a close (which updates the row)
-- waits for the sales in flight, and a sale that waited on a close reads it closed, so no sale
-- lands in a closed session. Locks are taken in one order, products, then the customer, then the
-- session, so two sales of one customer never wait on each other in a circle.
--
-- A lot-tracked product (DESIGN §15, decision 0031) also answers its unexpired units, its expired
-- lots locked after the product as every writer of lots locks them, so the sale is refused before
-- anything is written when they fall short; the ledger's trigger then picks the lots themselves.
-- An untracked cart reads nothing more.
--
-- Where the sale takes from (DESIGN §17, decision 0043), resolved once here: a sale in a till
-- session from its register's location, one without from the seller's (users.location_id; null:
-- the default location, default_location()). Each line's stock and unexpired units are read at
-- that location (location_stock, lot_stock), FOR SHARE after the product's lock as the ledger's
-- trigger writes them after it, so current. A line short there also answers `elsewhere`: the
-- other active locations holding some, most first (a CASE: read only for a short line).
--
-- $1 lines (jsonb), merged (mergeLines in sell.ts), in cart order: [{"product_id", "quantity"}];
--    each answers its place n (1, 2, …) on the receipt
-- $2 the customer's id, or null
-- $3 the store's name while it has no settings (STORE_NAME)
-- $4 the till session's id, or null
-- Answers one row a line, in place order, each carrying the store (`store`: the receipt's
-- snapshot), the customer, the session, the seller and the location (`location_*`). CartRow in sales.repository.ts is its type.
-- Needs: signed_in_user (signedInStatement, src/server/lib/auth.ts), store_today().
-- Filled at load: /* store_settings */ (storeSettingsSql in sales.repository.ts, over $3).
with lines as materialized (
  select t.product_id, t.quantity, t.n::int as n
  from rows from (jsonb_to_recordset($1::jsonb) as (product_id uuid, quantity int))
         with ordinality as t(product_id, quantity, n)
  order by t.product_id
), store as materialized (
  /* store_settings */
), place as materialized (
  -- A register's location changes only while no session of it is open (DESIGN §17).
  select o.id, o.name, o.active from locations o
  where o.id = coalesce(
    (select r.location_id from register_sessions rs join registers r on r.id = rs.register_id
     where rs.id = $4::uuid),
    (select u.location_id from users u where u.id = (select id from signed_in_user)),
    default_location())
), line_state as materialized (
  -- Each line's product by its primary key (lateral: a plan made for any number of lines still
  -- reads one product per line, never the catalogue), locked in product id order.
  select lines.*, p.id is not null as found, p.name, coalesce(here.stock, 0) as stock, p.price::text as price,
         p.cost::text as cost, p.category_name, r.name as rate_name, r.rate::text as rate, p.tracking, p.active,
         -- A lot-tracked product's unexpired units at the location, as the ledger's trigger judges
         -- them (DESIGN §15, §17): its stock there less its lots there that expired before today
         -- in the report zone, read FOR SHARE after the product's lock, so current. Read only
         -- for a tracked product (a CASE runs its subquery only when taken).
         case when p.tracking = 'lot' then coalesce(here.stock, 0) - (
           select coalesce(sum(x.quantity), 0)::int from (
             select s.quantity from lot_stock s join lots l on l.id = s.lot_id
             where s.product_id = p.id and s.location_id = (select id from place) and s.quantity > 0
               and l.expires_on < store_today()
             for share of s
           ) x
         ) end as unexpired
  from lines left join lateral (
    select p.id, p.name, p.stock, p.price, p.cost, p.tax_rate_id, p.tracking, p.active, c.name as category_name
    from products p join categories c on c.id = p.category_id
    where p.id = lines.product_id
    for update of p
  ) p on true
  left join lateral (
    select s.stock from location_stock s
    where s.product_id = p.id and s.location_id = (select id from place)
    for share of s
  ) here on true
  left join tax_rates r on r.id = coalesce(p.tax_rate_id, (select default_tax_rate_id from store))
), customer as materialized (
  -- After every product (the condition reads them all first): one order of locks for all sales.
  select id, name, credit_balance::text as credit_balance from customers
  where id = $2::uuid and (select count(*) from line_state) >= 0
  for no key update
), till_session as materialized (
  select id, number, status from register_sessions
  where id = $4::uuid and (select count(*) from customer) >= 0
  for share
)
select l.n, l.product_id, l.found, l.name, l.stock, l.quantity, l.price, l.cost, l.category_name,
       l.rate_name, l.rate, l.tracking, l.active, l.unexpired, store.receipt as store,
       place.id as location_id, place.name as location_name, place.active as location_active,
       case when l.found and (l.stock < l.quantity or l.unexpired < l.quantity) then (
         select coalesce(jsonb_agg(jsonb_build_object('location', jsonb_build_object('_id', o.id, 'name', o.name),
                                                      'stock', s.stock) order by s.stock desc, o.name), '[]'::jsonb)
         from location_stock s join locations o on o.id = s.location_id
         where s.product_id = l.product_id and s.location_id <> place.id and o.active and s.stock > 0
       ) end as elsewhere,
       store.max_discount_percent as store_max_discount_percent,
       (select name from customer) as customer_name, (select count(*) from customer)::int as customer_found,
       (select credit_balance from customer) as customer_credit,
       (select count(*) from till_session)::int as session_found, (select number from till_session) as session_number,
       (select status from till_session) as session_status,
       (select id from signed_in_user) as seller_id, (select name from signed_in_user) as seller_name,
       (select role from signed_in_user) as seller_role
from line_state l cross join store cross join place
order by l.n
