-- The stock ledger (DESIGN §8, decision 0011): a product inserted with stock gets its opening
-- movement, so products.stock stays the sum of its movements. stock_movements_apply lets it
-- through without applying it (the stock is already there).
-- Needs: products' id, stock; stock_movements (product_id, kind, quantity, stock_after, note).
-- Trigger: products_opening_movement, AFTER INSERT ON products REFERENCING NEW TABLE AS
-- added_products FOR EACH STATEMENT (migration 0010).
CREATE OR REPLACE FUNCTION products_opening_movement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_movements (product_id, kind, quantity, stock_after, note)
  SELECT id, 'initial', stock, stock, 'Opening balance' FROM added_products WHERE stock <> 0;
  RETURN NULL;
END $$;
