-- sales_write: writes a priced sale in one statement (decision 0027), for the signed-in seller,
-- once every check passed: the sale row draws its receipt number only now (a refusal costs no
-- number), each line becomes an order carrying what the shared computation gave it (discount,
-- tax, the rate as a snapshot, total_price = what the customer pays), each order a `sale` movement,
-- in product id order, through the ledger's trigger (IMS01 undoes the whole statement), each
-- payment its row, and store credit spent a `sale` entry whose trigger takes it off the customer's
-- balance, never below 0 (IMS03 undoes the whole statement). Nothing is written unless the seller
-- is still signed in and active (signed_in_user).
--
-- Money is exact text ("12.30") throughout the parameters.
-- $1 the sale (jsonb): {"customer_id", "customer_name", "method" (its one payment's, or split),
--    "tendered" (Σ of the cash handed over, null without cash), "change" (null without cash),
--    "subtotal", "discount", "tax", "total", "store" (the receipt's snapshot, sales.store),
--    "session_id" (null: no till session), "store_credit" (spent, null when none),
--    "location_id" (where the sale takes from, as read-cart.sql resolved it: each order and its
--    movement are at it, DESIGN §17), and for a sale made offline (DESIGN §21; all null
--    otherwise) "offline_id", "offline_hash", "sold_at" (the sale's created_at and its orders'
--    order_date: when it was sold; recorded_at is now), "device_number", "review" (a text array,
--    null when nothing is to review)}
-- $2 lines (jsonb): [{"product_id", "quantity", "n" (place on the receipt), "unit_price",
--    "unit_cost", "total", "discount", "tax", "rate_name", "rate", "product_name",
--    "category_name"}], in any order: the orders are written in product id order
-- $3 payments (jsonb), in the order given: [{"method", "amount" (put towards the total),
--    "tendered" (cash handed over, null for the others)}]
-- Answers each order (orders.*) with the sale's own figures beside it (created_at,
-- payment_method, tendered, change, sale_subtotal, sale_discount, sale_tax, sale_total), the
-- rows receiptOf in sales.repository.ts maps: WrittenRow is their type.
-- Needs: signed_in_user (signedInStatement, src/server/lib/auth.ts).
-- Filled at load: /* movements */ (movementsInsert of src/server/modules/stock/movements.ts, the
-- one writer of the stock ledger, over the orders just placed).
with given as (
  select * from jsonb_to_record($1::jsonb) as g(
    customer_id uuid, customer_name text, method text, tendered numeric, change numeric,
    subtotal numeric, discount numeric, tax numeric, total numeric, store jsonb, session_id uuid,
    store_credit numeric, location_id uuid, offline_id uuid, offline_hash text, sold_at timestamptz,
    device_number text, review text[])
), sale as (
  insert into sales (user_id, user_name, customer_id, customer_name, payment_method, tendered,
                     subtotal, discount, tax, total, store, change, session_id, created_at,
                     offline_id, offline_hash, device_number, recorded_at, review)
  select seller.id, seller.name, g.customer_id, g.customer_name, g.method, g.tendered,
         g.subtotal, g.discount, g.tax, g.total, g.store, g.change, g.session_id,
         coalesce(g.sold_at, clock_timestamp()), g.offline_id, g.offline_hash, g.device_number,
         case when g.offline_id is not null then clock_timestamp() end, g.review
  from given g cross join signed_in_user seller
  returning *
), paid as (
  insert into sale_payments (sale_id, n, method, amount, tendered)
  select sale.id, p.n, p.method, p.amount, p.tendered
  from rows from (jsonb_to_recordset($3::jsonb) as (method text, amount numeric, tendered numeric))
         with ordinality as p(method, amount, tendered, n)
    cross join sale
), credited as (
  insert into store_credit_entries (customer_id, amount, kind, sale_id, user_id, user_name)
  select sale.customer_id, -g.store_credit, 'sale', sale.id, sale.user_id, sale.user_name
  from sale cross join given g where g.store_credit is not null
), placed as (
  insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, discount, tax,
                      tax_rate_name, tax_rate, product_name, category_name, user_name, user_address,
                      sale_id, sale_number, sale_line, customer_id, customer_name, order_date, location_id)
  select sale.user_id, l.product_id, l.quantity, l.unit_price, l.unit_cost, l.total, l.discount, l.tax,
         l.rate_name, l.rate, l.product_name, l.category_name, sale.user_name, seller.address,
         sale.id, sale.number, l.n, sale.customer_id, sale.customer_name, sale.created_at,
         coalesce(g.location_id, default_location())
  from jsonb_to_recordset($2::jsonb) as l(
         product_id uuid, quantity int, n int, unit_price numeric, unit_cost numeric, total numeric,
         discount numeric, tax numeric, rate_name text, rate numeric, product_name text, category_name text)
    cross join sale cross join signed_in_user seller cross join given g
  order by l.product_id
  returning *
), sold as (
  /* movements */
)
select placed.*, sale.created_at, sale.payment_method, sale.tendered::text as tendered,
       sale.change::text as change, sale.subtotal::text as sale_subtotal,
       sale.discount::text as sale_discount, sale.tax::text as sale_tax, sale.total::text as sale_total,
       sale.device_number, sale.recorded_at, sale.review
from placed cross join sale
