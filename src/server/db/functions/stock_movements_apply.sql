-- The stock ledger (DESIGN §8, decision 0011; lots: DESIGN §15, decision 0031; locations: DESIGN
-- §17, decision 0043): inserting a movement applies it, adding its quantity to the product's stock
-- at its location (location_stock) and to the product's stock (products.stock, the sum over its
-- locations), each in one conditional statement that never goes below zero (refused with IMS01
-- "Not enough stock", IMS02 when the product is gone), and records the location's stock right
-- after it in the movement. A movement that names no location takes the default location.
-- Lots. A movement that names its lot (lot_id) also adds its quantity to that lot (lots.quantity,
-- the sum over locations) and to the lot's units at the location (lot_stock), never below zero
-- (IMS07 "Not enough stock in lot N", IMS08 when the lot is not the product's). A movement of a
-- lot-tracked product that names no lot has its lots chosen here, in the same statement, among the
-- lots at its location:
-- * a sale takes first-expiry-first-out: the lots unexpired today in the report time zone
--   (report_settings; expiry on or after today, no expiry last), the earliest expiry first, as
--   many as it needs; when they hold fewer units than it takes: IMS05, whose DETAIL carries the
--   facts as JSON ({"unexpired": N, "product": "<name>"}) for the server's one sentence of it
--   (unexpiredShortSentence in src/shared/lots.ts: "Only N of <product> unexpired in stock.");
-- * a return with its order goes back to the lots that order took from (what each gave less what
--   came back to it), the latest expiry first, into the return's location;
-- * anything else is IMS06 "Name the lot …" (the API asks for it first: a 400).
-- The first lot is this movement's own; each further lot is one more movement of the same kind,
-- order, note, user, location and transfer (inserted here, one trigger level down, applied like
-- any other), so that a lot = the sum of its movements and a product = the sum of its lots = the
-- sum of its movements, at every location and over all of them.
-- The product's row is locked first, before its location's row and its lots (as by every sale,
-- which locks its products first), so two writers of one product's stock never wait on each other
-- in a circle; IMS10 refuses a revaluation where there is no stock.
-- Value (DESIGN §19, decision 0046). Every movement carries its value (cents, signed like its
-- quantity), added here to the location's stock_value and the product's, in the same statements
-- as the units, so that each is the sum of its movements' values and reaches 0 with the stock:
-- * out: round(quantity × value ÷ stock) at the location, the last unit there taking what is left;
--   a refund's write-off (an adjustment naming the refund) takes out what its return brought in;
-- * in: a receipt or an opening movement at the value its writer gives (quantity × unit cost); a
--   return with its order at the value its sale took, pro rata by the cumulative rule (units back
--   brought to N: round(N × value taken ÷ units taken) less what came back before), a sale from
--   before the books (no value taken) at the order's unit cost; a transferIn likewise at what its
--   transfer's transferOut took (nothing for one sent before the books); any other gain (found, counted up, an adjustment) at the
--   product's average, round(quantity × stock_value ÷ stock), or quantity × cost at no stock;
-- * a revaluation (0 units) moves the value its writer gives at a location holding stock.
-- The product's cost follows: stock_value ÷ stock to the cent while there is stock.
-- Needs: products (id, stock, tracking, name, cost, stock_value), location_stock.stock_value,
-- orders.unit_cost, location_stock (product_id, location_id, stock),
-- lots (id, product_id, number, expires_on, quantity, created_at), lot_stock (lot_id,
-- location_id, product_id, quantity), stock_movements (every column), default_location(),
-- report_settings.time_zone (through store_today()).
-- Trigger: stock_movements_apply, BEFORE INSERT ON stock_movements FOR EACH ROW (migration 0010).
CREATE OR REPLACE FUNCTION stock_movements_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  after integer;
  product record;
  picked record;
  wanted integer;
  part integer;
  first boolean := true;
  today date;
  unexpired integer;
  here_stock integer;
  here_value numeric;
  worth numeric;
  took_units integer;
  took_worth numeric;
  back_units integer;
  back_worth numeric;
  sold_cost numeric;
  named text;
BEGIN
  IF NEW.location_id IS NULL THEN
    NEW.location_id := default_location();
  END IF;
  -- The opening movement of a product inserted with its stock (products_opening_movement, one
  -- trigger level down) records stock and value that are already there, at its location too.
  IF NEW.kind = 'initial' AND pg_trigger_depth() > 1 THEN
    NEW.value := coalesce(NEW.value, 0);
    RETURN NEW;
  END IF;
  -- The product's row first (as every sale locks its products first), so two writers of one
  -- product's stock never wait on each other in a circle; what it holds is then stable here.
  SELECT stock, tracking, name, cost, stock_value INTO product
  FROM products WHERE id = NEW.product_id FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Product not found' USING ERRCODE = 'IMS02';
  END IF;
  -- A movement of nothing (a count that found what the records hold: most lines of a stocktake)
  -- changes no stock: its lot is checked and the stock after it is the location's as it stands.
  -- A revaluation moves its value there. A tracked product's naming no lot goes the usual way
  -- (and is refused there), but for a revaluation, which values the product at the location.
  IF NEW.quantity = 0 AND (product.tracking = 'none' OR NEW.lot_id IS NOT NULL OR NEW.kind = 'revaluation') THEN
    IF NEW.lot_id IS NOT NULL THEN
      PERFORM 1 FROM lots WHERE id = NEW.lot_id AND product_id = NEW.product_id;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'Lot not found' USING ERRCODE = 'IMS08';
      END IF;
    END IF;
    SELECT stock INTO after FROM location_stock
    WHERE product_id = NEW.product_id AND location_id = NEW.location_id;
    NEW.stock_after := coalesce(after, 0);
    NEW.value := CASE WHEN NEW.kind = 'revaluation' THEN coalesce(NEW.value, 0) ELSE 0 END;
    IF NEW.value <> 0 THEN
      UPDATE location_stock SET stock_value = stock_value + NEW.value
      WHERE product_id = NEW.product_id AND location_id = NEW.location_id AND stock > 0
        AND stock_value + NEW.value >= 0;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'Nothing to revalue: no stock at the location, or value below 0' USING ERRCODE = 'IMS10';
      END IF;
      UPDATE products SET stock_value = stock_value + NEW.value,
                          cost = CASE WHEN cost IS NULL AND stock_value + NEW.value = 0 THEN NULL
                                      ELSE round((stock_value + NEW.value) / stock, 2) END
      WHERE id = NEW.product_id;
    END IF;
    RETURN NEW;
  END IF;
  -- A lot-tracked product's movement naming no lot has its lots chosen here.
  IF product.tracking <> 'none' AND NEW.lot_id IS NULL THEN
    IF NEW.kind = 'sale' AND NEW.quantity < 0 THEN
      today := store_today();
      named := product.name;
      wanted := -NEW.quantity;
      SELECT coalesce(sum(s.quantity), 0) INTO unexpired
      FROM lot_stock s JOIN lots l ON l.id = s.lot_id
      WHERE s.product_id = NEW.product_id AND s.location_id = NEW.location_id AND s.quantity > 0
        AND (l.expires_on IS NULL OR l.expires_on >= today);
      IF unexpired < wanted THEN
        RAISE EXCEPTION 'Not enough unexpired units of product %', NEW.product_id USING ERRCODE = 'IMS05',
          DETAIL = json_build_object('unexpired', unexpired, 'product', named)::text;
      END IF;
      FOR picked IN
        SELECT l.id, s.quantity FROM lot_stock s JOIN lots l ON l.id = s.lot_id
        WHERE s.product_id = NEW.product_id AND s.location_id = NEW.location_id AND s.quantity > 0
          AND (l.expires_on IS NULL OR l.expires_on >= today)
        ORDER BY l.expires_on ASC NULLS LAST, l.created_at, l.id
      LOOP
        part := least(wanted, picked.quantity);
        IF first THEN
          NEW.lot_id := picked.id;
          NEW.quantity := -part;
          first := false;
        ELSE
          INSERT INTO stock_movements (at, product_id, kind, quantity, reason, note, user_id, user_name,
                                       order_id, purchase_order_id, refund_id, lot_id, location_id, transfer_id)
          VALUES (NEW.at, NEW.product_id, NEW.kind, -part, NEW.reason, NEW.note, NEW.user_id, NEW.user_name,
                  NEW.order_id, NEW.purchase_order_id, NEW.refund_id, picked.id, NEW.location_id, NEW.transfer_id);
        END IF;
        wanted := wanted - part;
        EXIT WHEN wanted = 0;
      END LOOP;
    ELSIF NEW.kind = 'return' AND NEW.quantity > 0 AND NEW.order_id IS NOT NULL THEN
      wanted := NEW.quantity;
      FOR picked IN
        SELECT m.lot_id AS id, -sum(m.quantity)::integer AS open
        FROM stock_movements m JOIN lots l ON l.id = m.lot_id
        WHERE m.order_id = NEW.order_id AND m.product_id = NEW.product_id AND m.kind IN ('sale', 'return')
        GROUP BY m.lot_id, l.expires_on, l.created_at
        HAVING -sum(m.quantity) > 0
        ORDER BY l.expires_on DESC NULLS FIRST, l.created_at DESC, m.lot_id
      LOOP
        part := least(wanted, picked.open);
        IF first THEN
          NEW.lot_id := picked.id;
          NEW.quantity := part;
          first := false;
        ELSE
          INSERT INTO stock_movements (at, product_id, kind, quantity, reason, note, user_id, user_name,
                                       order_id, purchase_order_id, refund_id, lot_id, location_id, transfer_id)
          VALUES (NEW.at, NEW.product_id, NEW.kind, part, NEW.reason, NEW.note, NEW.user_id, NEW.user_name,
                  NEW.order_id, NEW.purchase_order_id, NEW.refund_id, picked.id, NEW.location_id, NEW.transfer_id);
        END IF;
        wanted := wanted - part;
        EXIT WHEN wanted = 0;
      END LOOP;
      IF wanted > 0 THEN
        RAISE EXCEPTION 'The order took % of these units from no lot: name the lot they go back to', wanted
          USING ERRCODE = 'IMS06';
      END IF;
    ELSE
      RAISE EXCEPTION 'Name the lot: this product is tracked by lot' USING ERRCODE = 'IMS06';
    END IF;
    -- The further lots' movements were applied one level down: the product as they left it.
    SELECT stock, tracking, name, cost, stock_value INTO product FROM products WHERE id = NEW.product_id;
  END IF;
  IF product.stock + NEW.quantity < 0 THEN
    RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
  END IF;
  SELECT stock, stock_value INTO here_stock, here_value FROM location_stock
  WHERE product_id = NEW.product_id AND location_id = NEW.location_id;
  here_stock := coalesce(here_stock, 0);
  here_value := coalesce(here_value, 0);
  -- The value (DESIGN §19).
  IF NEW.quantity < 0 THEN
    IF here_stock + NEW.quantity < 0 THEN
      RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
    END IF;
    IF here_stock + NEW.quantity = 0 THEN
      worth := -here_value;
    ELSIF NEW.kind = 'adjustment' AND NEW.refund_id IS NOT NULL THEN
      SELECT coalesce(sum(value), 0) INTO worth FROM stock_movements
      WHERE refund_id = NEW.refund_id AND kind = 'return' AND product_id = NEW.product_id
        AND order_id IS NOT DISTINCT FROM NEW.order_id AND lot_id IS NOT DISTINCT FROM NEW.lot_id
        AND location_id = NEW.location_id;
      worth := greatest(-worth, -here_value);
    ELSE
      worth := round(NEW.quantity * here_value / here_stock, 2);
    END IF;
  ELSIF NEW.value IS NOT NULL AND NEW.kind IN ('receipt', 'initial') THEN
    worth := NEW.value;
  ELSE
    IF NEW.kind = 'return' AND NEW.order_id IS NOT NULL THEN
      SELECT -sum(quantity) FILTER (WHERE kind = 'sale'), -sum(value) FILTER (WHERE kind = 'sale'),
             coalesce(sum(quantity) FILTER (WHERE kind = 'return'), 0),
             coalesce(sum(value) FILTER (WHERE kind = 'return'), 0),
             (SELECT unit_cost FROM orders WHERE id = NEW.order_id)
      INTO took_units, took_worth, back_units, back_worth, sold_cost FROM stock_movements
      WHERE order_id = NEW.order_id AND product_id = NEW.product_id AND kind IN ('sale', 'return');
    ELSIF NEW.kind = 'transferIn' AND NEW.transfer_id IS NOT NULL THEN
      SELECT -sum(quantity) FILTER (WHERE kind = 'transferOut'), -sum(value) FILTER (WHERE kind = 'transferOut'),
             coalesce(sum(quantity) FILTER (WHERE kind = 'transferIn'), 0),
             coalesce(sum(value) FILTER (WHERE kind = 'transferIn'), 0)
      INTO took_units, took_worth, back_units, back_worth FROM stock_movements
      WHERE transfer_id = NEW.transfer_id AND product_id = NEW.product_id AND kind IN ('transferOut', 'transferIn');
    END IF;
    IF took_units > 0 AND (took_worth > 0 OR NEW.kind = 'transferIn') THEN
      worth := greatest(round(least(back_units + NEW.quantity, took_units) * took_worth / took_units, 2)
                        - back_worth, 0);
    ELSIF took_units > 0 AND sold_cost IS NOT NULL THEN
      worth := round(NEW.quantity * sold_cost, 2);
    ELSIF product.stock > 0 THEN
      worth := round(NEW.quantity * product.stock_value / product.stock, 2);
    ELSE
      worth := round(NEW.quantity * coalesce(product.cost, 0), 2);
    END IF;
  END IF;
  NEW.value := worth;
  -- The location: units out come from its row, never below zero; units in make the row if need be.
  IF NEW.quantity < 0 THEN
    UPDATE location_stock SET stock = stock + NEW.quantity, stock_value = stock_value + worth
    WHERE product_id = NEW.product_id AND location_id = NEW.location_id
    RETURNING stock INTO after;
  ELSE
    INSERT INTO location_stock AS s (product_id, location_id, stock, stock_value)
    VALUES (NEW.product_id, NEW.location_id, NEW.quantity, worth)
    ON CONFLICT (product_id, location_id)
      DO UPDATE SET stock = s.stock + excluded.stock, stock_value = s.stock_value + excluded.stock_value
    RETURNING stock INTO after;
  END IF;
  UPDATE products SET
    stock = stock + NEW.quantity,
    stock_value = stock_value + worth,
    cost = CASE WHEN stock + NEW.quantity > 0 AND (cost IS NOT NULL OR stock_value + worth <> 0)
                THEN round((stock_value + worth) / (stock + NEW.quantity), 2) ELSE cost END
  WHERE id = NEW.product_id;
  IF NEW.lot_id IS NOT NULL THEN
    UPDATE lots SET quantity = quantity + NEW.quantity
    WHERE id = NEW.lot_id AND product_id = NEW.product_id AND quantity + NEW.quantity >= 0
    RETURNING number INTO picked;
    IF NOT FOUND THEN
      SELECT number INTO picked FROM lots WHERE id = NEW.lot_id AND product_id = NEW.product_id;
      IF FOUND THEN
        RAISE EXCEPTION 'Not enough stock in lot %', picked.number USING ERRCODE = 'IMS07';
      END IF;
      RAISE EXCEPTION 'Lot not found' USING ERRCODE = 'IMS08';
    END IF;
    IF NEW.quantity < 0 THEN
      UPDATE lot_stock SET quantity = quantity + NEW.quantity
      WHERE lot_id = NEW.lot_id AND location_id = NEW.location_id AND quantity + NEW.quantity >= 0;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'Not enough stock in lot %', picked.number USING ERRCODE = 'IMS07';
      END IF;
    ELSE
      INSERT INTO lot_stock AS s (lot_id, location_id, product_id, quantity)
      VALUES (NEW.lot_id, NEW.location_id, NEW.product_id, NEW.quantity)
      ON CONFLICT (lot_id, location_id) DO UPDATE SET quantity = s.quantity + excluded.quantity;
    END IF;
  END IF;
  NEW.stock_after := after;
  RETURN NEW;
END $$;
