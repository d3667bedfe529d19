-- Store credit (DESIGN §13): inserting an entry applies it to the customer's balance in one
-- conditional update that never goes below zero (refused with IMS03 "Not enough store credit",
-- IMS04 when the customer is gone), and records the balance right after it in the entry. Two
-- sales paying with one customer's credit take turns on the customer's row, so neither can take
-- the balance below 0.
-- Needs: customers (id, credit_balance), store_credit_entries (customer_id, amount, balance_after).
-- Trigger: store_credit_apply, BEFORE INSERT ON store_credit_entries FOR EACH ROW (migration 0024).
CREATE OR REPLACE FUNCTION store_credit_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  after numeric;
BEGIN
  UPDATE customers SET credit_balance = credit_balance + NEW.amount
  WHERE id = NEW.customer_id AND credit_balance + NEW.amount >= 0
  RETURNING credit_balance INTO after;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM customers WHERE id = NEW.customer_id) THEN
      RAISE EXCEPTION 'Not enough store credit' USING ERRCODE = 'IMS03';
    END IF;
    RAISE EXCEPTION 'Customer not found' USING ERRCODE = 'IMS04';
  END IF;
  NEW.balance_after := after;
  RETURN NEW;
END $$;
