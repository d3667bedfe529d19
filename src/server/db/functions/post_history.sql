-- Posts what a history written with the posting triggers set aside holds (DESIGN §19): the demo's
-- ninety days, written table by table as they happened, not event by event as the app writes
-- them. Each unposted sale, refund, movement with a value, session opened with a float or closed,
-- cash movement and store credit adjustment gets the entry its trigger would have given it (the
-- same post_* function), in the order they happened; an Orders-screen return (an order whose units
-- or money came back outside a refund, with nothing posted for it) its post_return of what came
-- back. Answers how many it posted. Only a writer of history calls it (seed.ts); the app's events
-- post themselves.
-- Needs: post_sale, post_refund, post_movement, post_session_open, post_session_close, post_cash,
-- post_credit, post_return; the sources' tables and the journal.
CREATE OR REPLACE FUNCTION post_history() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  e record;
  n integer := 0;
BEGIN
  FOR e IN
    SELECT * FROM (
      SELECT 'sale' AS kind, s.id, s.created_at AS at FROM sales s
       WHERE NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'sale' AND j.source_id = s.id)
      UNION ALL
      SELECT 'refund', f.id, f.created_at FROM refunds f
       WHERE NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'refund' AND j.source_id = f.id)
      UNION ALL
      SELECT 'movement', m.id, m.at FROM stock_movements m
       WHERE m.value <> 0 AND m.refund_id IS NULL AND m.kind NOT IN ('sale', 'return')
         AND NOT EXISTS (SELECT 1 FROM journal_movements j WHERE j.movement_id = m.id)
      UNION ALL
      SELECT 'open', r.id, r.opened_at FROM register_sessions r
       WHERE r.opening_float > 0
         AND NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'sessionOpen' AND j.source_id = r.id)
      UNION ALL
      SELECT 'close', r.id, r.closed_at FROM register_sessions r
       WHERE r.status = 'closed'
         AND NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'sessionClose' AND j.source_id = r.id)
      UNION ALL
      SELECT 'cash', c.id, c.at FROM cash_movements c
       WHERE NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'cash' AND j.source_id = c.id)
      UNION ALL
      SELECT 'credit', c.id, c.at FROM store_credit_entries c
       WHERE c.kind = 'adjustment'
         AND NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'credit' AND j.source_id = c.id)
      UNION ALL
      -- An order placed on its own before sales had receipts (the observed product's): a sale of one
      -- line, paid to the safe.
      SELECT 'order', o.id, o.order_date FROM orders o
       WHERE o.sale_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM journal_entries j WHERE j.source_kind = 'sale' AND j.source_id = o.id)
      UNION ALL
      SELECT 'return', o.id, max(m.at) FROM orders o JOIN stock_movements m ON m.order_id = o.id
       WHERE m.kind = 'return' AND m.refund_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM journal_movements j WHERE j.movement_id = m.id)
       GROUP BY o.id
    ) x ORDER BY at, kind, id
  LOOP
    CASE e.kind
      WHEN 'sale' THEN PERFORM post_sale(e.id);
      WHEN 'refund' THEN PERFORM post_refund(e.id);
      WHEN 'movement' THEN PERFORM post_movement(e.id);
      WHEN 'open' THEN PERFORM post_session_open(e.id);
      WHEN 'close' THEN PERFORM post_session_close(e.id);
      WHEN 'cash' THEN PERFORM post_cash(e.id);
      WHEN 'credit' THEN PERFORM post_credit(e.id);
      WHEN 'order' THEN
        PERFORM journal_post('sale', o.id, store_day(o.order_date), 'Order',
          (SELECT jsonb_agg(x) FROM (
             SELECT jsonb_build_object('account', account_of('safe'), 'amount', o.total_price) AS x
             UNION ALL SELECT jsonb_build_object('account', account_of('sales'), 'amount', -(o.total_price - o.tax),
                                                 'location', o.location_id)
             UNION ALL SELECT jsonb_build_object('account', account_of('taxPayable'), 'amount', -o.tax,
                                                 'tax_rate', o.tax_rate_name)
             UNION ALL SELECT jsonb_build_object('account', account_of(k.key), 'amount', k.sign * sum(m.value),
                                                 'location', m.location_id)
             FROM stock_movements m CROSS JOIN (VALUES ('cogs', -1), ('inventory', 1)) AS k(key, sign)
             WHERE m.order_id = o.id AND m.kind = 'sale' GROUP BY k.key, k.sign, m.location_id) y),
          (SELECT array_agg(m.id) FROM stock_movements m WHERE m.order_id = o.id AND m.kind = 'sale'),
          o.user_id, o.user_name, NULL)
        FROM orders o WHERE o.id = e.id;
      WHEN 'return' THEN
        -- What came back outside refunds, less what returns posted already.
        PERFORM post_return(o.id, o.returned_total - coalesce(f.total, 0), o.returned_tax - coalesce(f.tax, 0), NULL, NULL, e.at)
        FROM orders o
        LEFT JOIN (SELECT order_id, sum(amount) AS total, sum(tax) AS tax FROM refund_lines GROUP BY order_id) f
          ON f.order_id = o.id
        WHERE o.id = e.id;
    END CASE;
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;
