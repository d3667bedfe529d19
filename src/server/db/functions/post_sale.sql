-- A sale's entry (DESIGN §19; the table: journal_source_posted.sql). The sale, its session's
-- register, its payments, orders and movements are read by one statement (it runs at every sale's
-- commit: decision 0047's bench), each table once; its lines in the order of the table of §19.
-- The accounts are read once, as account_of would find each.
-- Needs: journal_post, store_day, accounts; sales, register_sessions, sale_payments, orders, stock_movements.
CREATE OR REPLACE FUNCTION post_sale(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  src record;
  lines jsonb;
  moved uuid[];
BEGIN
  WITH acc AS MATERIALIZED (
    SELECT system, id FROM accounts WHERE system IN ('tillCash', 'safe', 'storeCredit', 'clearing', 'sales',
                                                     'taxPayable', 'cogs', 'inventory')
  ), s AS MATERIALIZED (
    SELECT s.id, s.created_at, s.session_id, s.customer_id, s.user_id, s.user_name, r.register_id
    FROM sales s LEFT JOIN register_sessions r ON r.id = s.session_id WHERE s.id = p_id
  ), o AS MATERIALIZED (
    SELECT o.id, o.location_id, o.total_price, o.tax, o.tax_rate_name FROM orders o WHERE o.sale_id = p_id
  ), m AS MATERIALIZED (
    SELECT m.id, m.location_id, m.value FROM stock_movements m JOIN o ON o.id = m.order_id WHERE m.kind = 'sale'
  ), y AS (
    SELECT 1 AS part, p.n AS n, jsonb_build_object(
             'account', (SELECT acc.id FROM acc WHERE acc.system =
                           CASE p.method WHEN 'cash' THEN CASE WHEN s.session_id IS NULL THEN 'safe' ELSE 'tillCash' END
                                         WHEN 'storeCredit' THEN 'storeCredit' ELSE 'clearing' END),
             'amount', p.amount,
             'register', CASE WHEN p.method = 'cash' AND s.session_id IS NOT NULL THEN s.register_id END,
             'customer', CASE WHEN p.method = 'storeCredit' THEN s.customer_id END) AS e
    FROM sale_payments p CROSS JOIN s WHERE p.sale_id = p_id
    UNION ALL
    SELECT 2, 0, jsonb_build_object('account', (SELECT acc.id FROM acc WHERE acc.system = 'sales'), 'amount', -sum(o.total_price - o.tax),
                              'location', o.location_id)
    FROM o GROUP BY o.location_id
    UNION ALL
    SELECT 3, 0, jsonb_build_object('account', (SELECT acc.id FROM acc WHERE acc.system = 'taxPayable'), 'amount', -sum(o.tax), 'tax_rate', o.tax_rate_name)
    FROM o GROUP BY o.tax_rate_name
    UNION ALL
    SELECT 4, k.sign, jsonb_build_object('account', (SELECT acc.id FROM acc WHERE acc.system = k.key), 'amount', k.sign * sum(m.value), 'location', m.location_id)
    FROM m CROSS JOIN (VALUES ('cogs', -1), ('inventory', 1)) AS k(key, sign)
    GROUP BY k.key, k.sign, m.location_id
  )
  SELECT s.*, (SELECT coalesce(jsonb_agg(e ORDER BY part, n), '[]'::jsonb) FROM y) AS lines, (SELECT array_agg(m.id) FROM m) AS moved
    INTO src FROM s;
  PERFORM journal_post('sale', src.id, store_day(src.created_at), 'Sale', src.lines, src.moved, src.user_id,
                       src.user_name, NULL);
END $$;
