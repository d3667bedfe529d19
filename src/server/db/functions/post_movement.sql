-- The entry of a movement with a value that no sale or refund posts, with the unposted movements of
-- its document and moment, one entry (DESIGN §19; the table: journal_source_posted.sql): a
-- purchase order's receipt call, a transfer's step, a stocktake's post, else the movements of one
-- kind, note, person and moment (a catalogue import batch's openings).
-- Needs: journal_post, account_of, store_day; stock_movements, journal_movements, purchase_orders.
CREATE OR REPLACE FUNCTION post_movement(p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  mv stock_movements%ROWTYPE;
  lines jsonb;
  moved uuid[];
  doc text;
BEGIN
  SELECT * INTO mv FROM stock_movements WHERE id = p_id;
  -- Gone, or posted already with the others of its document and moment.
  IF NOT FOUND OR EXISTS (SELECT 1 FROM journal_movements WHERE movement_id = p_id) THEN
    RETURN;
  END IF;
  IF mv.purchase_order_id IS NOT NULL AND mv.kind = 'receipt' THEN
    doc := 'receipt';
  ELSIF mv.transfer_id IS NOT NULL THEN
    doc := 'transfer';
  ELSIF mv.stocktake_id IS NOT NULL THEN
    doc := 'stocktake';
  ELSE
    doc := 'movement';
  END IF;
  WITH picked AS (
    SELECT s.id, s.kind, s.value, s.reason, s.location_id FROM stock_movements s
    WHERE s.value <> 0 AND s.refund_id IS NULL AND s.kind NOT IN ('sale', 'return')
      AND NOT EXISTS (SELECT 1 FROM journal_movements j WHERE j.movement_id = s.id)
      AND CASE doc
            WHEN 'receipt' THEN s.purchase_order_id = mv.purchase_order_id AND s.kind = 'receipt' AND s.at = mv.at
            WHEN 'transfer' THEN s.transfer_id = mv.transfer_id AND s.at = mv.at
            WHEN 'stocktake' THEN s.stocktake_id = mv.stocktake_id
            -- Through the partial index stock_movements_posted_at_idx.
            ELSE s.kind IN ('initial', 'adjustment', 'count', 'revaluation', 'receipt') AND s.kind = mv.kind
                 AND s.at = mv.at AND s.note = mv.note AND s.user_id IS NOT DISTINCT FROM mv.user_id
                 AND s.purchase_order_id IS NULL AND s.transfer_id IS NULL AND s.stocktake_id IS NULL
          END
  ), counter AS (
    SELECT CASE
             WHEN p.kind = 'receipt' THEN 'receivedNotBilled'
             WHEN p.kind IN ('transferOut', 'transferIn') THEN 'inTransit'
             WHEN p.kind = 'initial' THEN 'openingEquity'
             WHEN p.value < 0 AND p.kind <> 'revaluation' AND p.reason IN ('damaged', 'lost', 'expired') THEN 'writeOffs'
             ELSE 'adjustments' END AS key,
           -sum(p.value) AS amount
    FROM picked p GROUP BY 1
  )
  SELECT (SELECT array_agg(id) FROM picked),
         (SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM (
            SELECT jsonb_build_object('account', account_of('inventory'), 'amount', sum(p.value),
                                      'location', p.location_id) AS e
            FROM picked p GROUP BY p.location_id
            UNION ALL
            SELECT jsonb_build_object('account', account_of(c.key), 'amount', c.amount,
                                      'supplier', CASE WHEN c.key = 'receivedNotBilled' THEN
                                        (SELECT supplier_id FROM purchase_orders WHERE id = mv.purchase_order_id) END)
            FROM counter c) y)
    INTO moved, lines;
  IF moved IS NOT NULL THEN
    PERFORM journal_post(doc,
                         CASE doc WHEN 'receipt' THEN mv.purchase_order_id WHEN 'transfer' THEN mv.transfer_id
                                  WHEN 'stocktake' THEN mv.stocktake_id ELSE mv.id END,
                         store_day(mv.at),
                         CASE doc WHEN 'receipt' THEN 'Goods received' WHEN 'transfer' THEN 'Transfer'
                                  WHEN 'stocktake' THEN 'Stocktake' ELSE initcap(mv.kind) END,
                         lines, moved, mv.user_id, mv.user_name, NULL);
  END IF;
END $$;
