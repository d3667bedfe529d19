-- reorder_at_location_json: the reorder suggestions at one location (DESIGN §17) as the JSON text
-- of ReorderSuggestionsResponse, built by the database as the whole store's are (at 100,000
-- products thousands of lines): the rows of reorder-at-location.sql grouped by supplier, each
-- line's `suggested` what is left to buy after its transfer, each supplier's newest draft
-- delivered to the location (one probe of purchase_orders_supplier_draft_idx per supplier).
--
-- $1 the location's id (uuid), $2 its name.
with r as (
  /* rows */
),
by_supplier as (
  select r.supplier_id, r.supplier_name,
         json_agg(json_build_object(
           'product', json_build_object('_id', r.product_id, 'name', r.name),
           'stock', r.stock, 'onOrder', r.on_order, 'reorderPoint', r.reorder_point,
           'suggested', r.buy, 'unitCost', r.unit_cost::numeric,
           'transferFrom', case when r.from_id is null then null
                           else json_build_object('location', json_build_object('_id', r.from_id, 'name', r.from_name),
                                                  'available', r.available, 'quantity', r.transfer) end)
           order by r.name_key, r.product_id) as lines
  from r group by r.supplier_id, r.supplier_name
)
select json_build_object('success', true,
         'location', json_build_object('_id', $1::uuid, 'name', $2::text),
         'suppliers', coalesce(json_agg(
           json_build_object('supplier', json_build_object('_id', b.supplier_id, 'name', b.supplier_name),
                             'draft', case when d.id is null then null
                                      else json_build_object('_id', d.id, 'number', /* number */) end,
                             'lines', b.lines)
           order by lower(b.supplier_name), b.supplier_id), '[]'::json))::text as body
from by_supplier b
left join lateral (select o.id, o.number from purchase_orders o
                   where o.supplier_id = b.supplier_id and o.status = 'draft' and o.location_id = $1
                   order by o.number desc limit 1) d on true
