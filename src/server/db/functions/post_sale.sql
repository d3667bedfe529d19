-- A sale's entry (DESIGN §19; the table: journal_source_posted.sql).
-- Needs: journal_post, account_of, store_day; sales, register_sessions, sale_payments, orders, stock_movements.
CREATE OR REPLACE FUNCTION post_sale(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  src record;
  lines jsonb;
  moved uuid[];
BEGIN
  SELECT s.id, s.created_at, s.session_id, s.customer_id, s.user_id, s.user_name, r.register_id
    INTO src FROM sales s LEFT JOIN register_sessions r ON r.id = s.session_id WHERE s.id = p_id;
  SELECT coalesce(jsonb_agg(e), '[]'::jsonb) INTO lines FROM (
    SELECT jsonb_build_object(
             'account', account_of(CASE p.method WHEN 'cash' THEN CASE WHEN src.session_id IS NULL THEN 'safe' ELSE 'tillCash' END
                                                 WHEN 'storeCredit' THEN 'storeCredit' ELSE 'clearing' END),
             'amount', p.amount,
             'register', CASE WHEN p.method = 'cash' AND src.session_id IS NOT NULL THEN src.register_id END,
             'customer', CASE WHEN p.method = 'storeCredit' THEN src.customer_id END) AS e
    FROM sale_payments p WHERE p.sale_id = src.id
    UNION ALL
    SELECT jsonb_build_object('account', account_of('sales'), 'amount', -sum(o.total_price - o.tax),
                              'location', o.location_id)
    FROM orders o WHERE o.sale_id = src.id GROUP BY o.location_id
    UNION ALL
    SELECT jsonb_build_object('account', account_of('taxPayable'), 'amount', -sum(o.tax), 'tax_rate', o.tax_rate_name)
    FROM orders o WHERE o.sale_id = src.id GROUP BY o.tax_rate_name
    UNION ALL
    SELECT jsonb_build_object('account', account_of(k.key), 'amount', k.sign * sum(m.value), 'location', m.location_id)
    FROM stock_movements m JOIN orders o ON o.id = m.order_id
    CROSS JOIN (VALUES ('cogs', -1), ('inventory', 1)) AS k(key, sign)
    WHERE o.sale_id = src.id AND m.kind = 'sale'
    GROUP BY k.key, k.sign, m.location_id
  ) y;
  SELECT array_agg(m.id) INTO moved FROM stock_movements m JOIN orders o ON o.id = m.order_id
  WHERE o.sale_id = src.id AND m.kind = 'sale';
  PERFORM journal_post('sale', src.id, store_day(src.created_at), 'Sale', lines, moved, src.user_id,
                       src.user_name, NULL);
END $$;
