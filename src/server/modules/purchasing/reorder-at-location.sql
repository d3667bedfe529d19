-- reorder_at_location: the products to reorder at one location (DESIGN §17), in supplier then
-- name order, each with where a transfer could come from. A product is judged at a location
-- where it has a row of location_stock (it has held stock there, is on order there, or has a
-- reorder point set there): stock + on order there ≤ the reorder point in force there (the
-- location's own, else the product's in force: product_stock.reorder_at). `needed` is what
-- SUGGESTED_QUANTITY says from those figures. The transfer's source is the other active
-- location holding the most units above its own reorder point in force (`available`); `transfer`
-- = least(needed, available), the rest (`buy`) is the purchase suggestion.
--
-- The location's rows are a range of location_stock_location_idx, each joined to its
-- product_stock row; the sources are the other rows of those products (location_stock's key
-- starts with product_id).
--
-- $1 the location's id (uuid).
with here as (
  select ls.product_id, ps.name, ps.name_key, ps.supplier_id, ps.cost, ps.reorder_at,
         ls.stock, ls.on_order,
         coalesce(ls.reorder_point, ps.reorder_at) as reorder_point,
         coalesce(ls.reorder_quantity, ps.reorder_quantity) as reorder_quantity
  from location_stock ls join product_stock ps on ps.product_id = ls.product_id
  where ls.location_id = $1 and ls.stock + ls.on_order <= coalesce(ls.reorder_point, ps.reorder_at)
),
needs as (
  select r.*, /* suggested */ as needed from here r
),
-- Each product's source: one pass over the other locations' rows of the products needed (a hash
-- join for thousands of lines, the key's product_id for a few), the most to spare first.
sources as (
  select distinct on (o.product_id) o.product_id, o.location_id, l.name,
         o.stock - coalesce(o.reorder_point, n.reorder_at) as available
  from needs n
  join location_stock o on o.product_id = n.product_id and o.location_id <> $1
  join locations l on l.id = o.location_id and l.active
  where o.stock > coalesce(o.reorder_point, n.reorder_at)
  order by o.product_id, available desc, lower(l.name), l.id
)
select n.product_id, n.name, n.name_key, n.supplier_id, s.name as supplier_name, n.stock, n.on_order,
       n.reorder_point, coalesce(n.cost, 0)::text as unit_cost, n.needed,
       f.location_id as from_id, f.name as from_name, f.available,
       t.transfer, n.needed - t.transfer as buy
from needs n
join suppliers s on s.id = n.supplier_id
left join sources f on f.product_id = n.product_id
-- least() passes over a null: with no source, the transfer is 0, not all that is needed.
cross join lateral (select case when f.available is null then 0 else least(n.needed, f.available) end as transfer) t
order by lower(s.name), s.id, n.name_key, n.product_id
