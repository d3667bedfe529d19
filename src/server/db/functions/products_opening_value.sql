-- Value (DESIGN §19, decision 0046): a product inserted with stock is worth stock × its cost (0
-- without one), whatever the insert said; its opening movement (products_opening_movement) carries
-- that value. From then on only the ledger's trigger changes it (products_stock_from_ledger).
-- Needs: products.stock, cost, stock_value. Trigger: products_opening_value, BEFORE INSERT ON
-- products FOR EACH ROW (migration 0035).
CREATE OR REPLACE FUNCTION products_opening_value() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.stock_value := round(NEW.stock * coalesce(NEW.cost, 0), 2);
  RETURN NEW;
END $$;
