-- The books (DESIGN §19, decision 0047): each event that moves money or stock posts its one
-- journal entry in its own transaction, at commit, through journal_post. A deferred constraint
-- trigger on the event's row calls this function, so the entry sees everything the transaction
-- wrote (a sale's orders, payments and movements, a lot-tracked line's further movements, a
-- refund's write-offs), whichever statement wrote it. The table, by source:
-- * sales (INSERT): a sale. Debit what was paid: cash kept (1000 Till cash in a session, else
--   1050 Safe), card and other (1150), store credit (2300, the customer); credit 4000 Sales the
--   net and 2200 Tax payable the tax by rate; debit 5000 and credit 1300 Inventory the value its
--   movements took out, at each location.
-- * refunds (INSERT): a refund. Debit 4100 Sales returns the net given back and 2200 its tax;
--   credit the method's account (1000 in a session / 1050 for cash, 1150, 2300); debit 1300,
--   credit 5000 the value its returns brought back; a write-off debit 5100, credit 1300.
-- * stock_movements (INSERT, a movement with a value that no sale or refund posts): the unposted
--   movements of the same document and moment together, one entry: a purchase order's receipt
--   (1300 / 2100 Goods received not billed, the supplier), a transfer's step (1310 Goods in
--   transit and 1300 at each location, a loss to 5150), a stocktake's post (1300 / 5150), else
--   the movements of one kind, note and moment (source `movement`): an opening 1300 / 3000, a
--   gain 1300 / 5150, a loss 5100 (damaged, lost, expired) or 5150 / 1300, a revaluation 1300 /
--   5150 either way.
-- * register_sessions: opened with a float (INSERT) 1000 / 1050; closed (UPDATE of status) 1050
--   the counted cash and 1000 the expected, the difference to 6100 Cash over and short.
-- * cash_movements (INSERT): cash in 1000 / 1050, cash out 6900 / 1000 (or the account named).
-- * store_credit_entries (INSERT of an admin's adjustment): given 6950 Goodwill / 2300, taken
--   back 2300 / 6950. Credit spent or refunded is the sale's or the refund's.
-- An Orders-screen return has no row of its own: the server posts it (post_return).
-- Each source's posting is a function of its own (post_sale.sql, post_refund.sql,
-- post_movement.sql, post_session_open.sql, post_session_close.sql, post_cash.sql,
-- post_credit.sql), called here for the row and by post_history for rows written while these
-- triggers were set aside (a seed's or a loader's history).
-- Needs: those functions.
-- Triggers (migration 0036), each AFTER … DEFERRABLE INITIALLY DEFERRED FOR EACH ROW:
-- sales_posted, refunds_posted, stock_movements_posted, register_sessions_opened,
-- register_sessions_closed, cash_movements_posted, store_credit_entries_posted.
CREATE OR REPLACE FUNCTION journal_source_posted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'sales' THEN PERFORM post_sale(NEW.id);
    WHEN 'refunds' THEN PERFORM post_refund(NEW.id);
    WHEN 'stock_movements' THEN PERFORM post_movement(NEW.id);
    WHEN 'register_sessions' THEN
      IF TG_OP = 'INSERT' THEN
        PERFORM post_session_open(NEW.id);
      ELSE
        PERFORM post_session_close(NEW.id);
      END IF;
    WHEN 'cash_movements' THEN PERFORM post_cash(NEW.id);
    WHEN 'store_credit_entries' THEN PERFORM post_credit(NEW.id);
  END CASE;
  RETURN NULL;
END $$;
