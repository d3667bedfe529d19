-- DESIGN §21: each product's price and own tax rate over time (product_prices), so an offline
-- sale's prices can be judged against what the product had while the device was offline. A new
-- product (one statement of many, an import: FOR EACH STATEMENT over new_products) starts its
-- history; a change of price or rate (FOR EACH ROW, UPDATE OF price, tax_rate_id: a sale's stock
-- change never fires it) closes the open period and starts the next, both at clock_timestamp().
-- Needs: product_prices.
-- Triggers (migration 0041): products_prices_added AFTER INSERT ON products REFERENCING NEW TABLE
-- AS new_products FOR EACH STATEMENT; products_prices_changed AFTER UPDATE OF price, tax_rate_id
-- ON products FOR EACH ROW.
CREATE OR REPLACE FUNCTION products_price_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamptz := clock_timestamp();
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    INSERT INTO product_prices (product_id, price, tax_rate_id, valid_from)
    SELECT id, price, tax_rate_id, at FROM new_products;
    RETURN NULL;
  END IF;
  IF NEW.price IS NOT DISTINCT FROM OLD.price AND NEW.tax_rate_id IS NOT DISTINCT FROM OLD.tax_rate_id THEN
    RETURN NULL;
  END IF;
  UPDATE product_prices SET valid_to = at WHERE product_id = NEW.id AND valid_to IS NULL;
  INSERT INTO product_prices (product_id, price, tax_rate_id, valid_from) VALUES (NEW.id, NEW.price, NEW.tax_rate_id, at);
  RETURN NULL;
END $$;
