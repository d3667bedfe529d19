-- A refund's entry (DESIGN §19; the table: journal_source_posted.sql).
-- Needs: journal_post, account_of, store_day; refunds, register_sessions, refund_lines, orders, stock_movements.
CREATE OR REPLACE FUNCTION post_refund(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  src record;
  lines jsonb;
  moved uuid[];
BEGIN
  SELECT f.id, f.created_at, f.session_id, f.method, f.total, f.customer_id, f.user_id, f.user_name,
         r.register_id
    INTO src FROM refunds f LEFT JOIN register_sessions r ON r.id = f.session_id WHERE f.id = p_id;
  lines := (
    SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM (
      SELECT jsonb_build_object(
               'account', account_of(CASE src.method WHEN 'cash' THEN CASE WHEN src.session_id IS NULL THEN 'safe' ELSE 'tillCash' END
                                                     WHEN 'storeCredit' THEN 'storeCredit' ELSE 'clearing' END),
               'amount', -src.total,
               'register', CASE WHEN src.method = 'cash' AND src.session_id IS NOT NULL THEN src.register_id END,
               'customer', CASE WHEN src.method = 'storeCredit' THEN src.customer_id END) AS e
      UNION ALL
      SELECT jsonb_build_object('account', account_of('salesReturns'), 'amount', sum(l.amount - l.tax),
                                'location', o.location_id)
      FROM refund_lines l LEFT JOIN orders o ON o.id = l.order_id WHERE l.refund_id = src.id
      GROUP BY o.location_id
      UNION ALL
      SELECT jsonb_build_object('account', account_of('taxPayable'), 'amount', sum(l.tax), 'tax_rate', l.tax_rate_name)
      FROM refund_lines l WHERE l.refund_id = src.id GROUP BY l.tax_rate_name
      UNION ALL
      -- Units back: 1300 / 5000 at what they bring in; written off: 5100 / 1300 at what they take out.
      SELECT jsonb_build_object('account', account_of(k.key), 'amount', k.sign * sum(m.value),
                                'location', m.location_id)
      FROM stock_movements m
      CROSS JOIN (VALUES ('inventory', 1, true), ('cogs', -1, true), ('inventory', 1, false),
                         ('writeOffs', -1, false)) AS k(key, sign, back)
      WHERE m.refund_id = src.id AND (m.kind = 'return') = k.back
      GROUP BY k.key, k.sign, k.back, m.location_id
    ) y
  );
  SELECT array_agg(m.id) INTO moved FROM stock_movements m WHERE m.refund_id = src.id;
  PERFORM journal_post('refund', src.id, store_day(src.created_at), 'Refund', lines, moved, src.user_id,
                       src.user_name, NULL);
END $$;
