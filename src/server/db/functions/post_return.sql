-- An Orders-screen return (DESIGN §19): the server posts it (it has no row of its own), once the
-- order's units and money are back (returnOrder). Debit 4100 the net and 2200 the tax given back
-- (`total` and `tax`, as takeBack gave them), dated on the day of `p_at` (null: now); credit 1050 Safe (a sale paid in cash or split, or
-- one without a sale) or 1150 (card, other, store credit); debit 1300, credit 5000 the value its
-- return movements brought back (those of the order no refund names and no entry posts yet).
-- Needs: journal_post, account_of, store_day; orders, sales, stock_movements, journal_movements.
CREATE OR REPLACE FUNCTION post_return(p_order uuid, p_total numeric, p_tax numeric, p_user_id uuid,
                                       p_user_name text, p_at timestamptz) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  ord record;
  lines jsonb;
  moved uuid[];
BEGIN
  SELECT o.id, o.location_id, o.tax_rate_name, s.payment_method INTO ord
  FROM orders o LEFT JOIN sales s ON s.id = o.sale_id WHERE o.id = p_order;
  WITH picked AS (
    SELECT m.id, m.value, m.location_id FROM stock_movements m
    WHERE m.order_id = p_order AND m.kind = 'return' AND m.refund_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM journal_movements j WHERE j.movement_id = m.id)
  )
  SELECT (SELECT array_agg(id) FROM picked),
         (SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM (
            SELECT jsonb_build_object('account', account_of('salesReturns'), 'amount', p_total - p_tax,
                                      'location', ord.location_id) AS e
            UNION ALL
            SELECT jsonb_build_object('account', account_of('taxPayable'), 'amount', p_tax, 'tax_rate', ord.tax_rate_name)
            UNION ALL
            SELECT jsonb_build_object('account', account_of(CASE WHEN coalesce(ord.payment_method, 'cash') IN ('cash', 'split')
                                                                 THEN 'safe' ELSE 'clearing' END),
                                      'amount', -p_total)
            UNION ALL
            SELECT jsonb_build_object('account', account_of(k.key), 'amount', k.sign * sum(p.value),
                                      'location', p.location_id)
            FROM picked p CROSS JOIN (VALUES ('inventory', 1), ('cogs', -1)) AS k(key, sign)
            GROUP BY k.key, k.sign, p.location_id) y)
    INTO moved, lines;
  RETURN journal_post('return', p_order, store_day(coalesce(p_at, now())), 'Return', lines, moved, p_user_id, p_user_name, NULL);
END $$;
