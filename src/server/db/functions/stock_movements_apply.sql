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
-- The product's row is locked before its location's row and its lots (as by every sale, which
-- locks its products first), so two writers of one product's stock never wait on each other in a
-- circle.
-- Needs: products (id, stock, tracking, name), location_stock (product_id, location_id, stock),
-- lots (id, product_id, number, expires_on, quantity, created_at), lot_stock (lot_id,
-- location_id, product_id, quantity), stock_movements (every column), default_location(),
-- report_settings.time_zone (through store_today()).
-- Trigger: stock_movements_apply, BEFORE INSERT ON stock_movements FOR EACH ROW (migration 0010).
CREATE OR REPLACE FUNCTION stock_movements_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  after integer;
  tracked text;
  named text;
  picked record;
  wanted integer;
  part integer;
  first boolean := true;
  today date;
  unexpired integer;
BEGIN
  IF NEW.location_id IS NULL THEN
    NEW.location_id := default_location();
  END IF;
  -- The opening movement of a product inserted with its stock (products_opening_movement, one
  -- trigger level down) records stock that is already there, at its location too.
  IF NEW.kind = 'initial' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  -- A movement of nothing (a count that found what the records hold: most lines of a stocktake)
  -- changes no stock: the product's row is locked as an update would lock it, its lot checked,
  -- and the stock after it is the location's as it stands. A tracked product's naming no lot
  -- goes the usual way (and is refused there).
  IF NEW.quantity = 0 THEN
    SELECT tracking INTO tracked FROM products WHERE id = NEW.product_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Product not found' USING ERRCODE = 'IMS02';
    END IF;
    IF tracked = 'none' OR NEW.lot_id IS NOT NULL THEN
      IF NEW.lot_id IS NOT NULL THEN
        PERFORM 1 FROM lots WHERE id = NEW.lot_id AND product_id = NEW.product_id;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'Lot not found' USING ERRCODE = 'IMS08';
        END IF;
      END IF;
      SELECT stock INTO after FROM location_stock
      WHERE product_id = NEW.product_id AND location_id = NEW.location_id;
      NEW.stock_after := coalesce(after, 0);
      RETURN NEW;
    END IF;
  END IF;
  -- A product without lots, or a movement naming its lot: one conditional update, as ever.
  UPDATE products SET stock = stock + NEW.quantity
  WHERE id = NEW.product_id AND stock + NEW.quantity >= 0
    AND (NEW.lot_id IS NOT NULL OR tracking = 'none');
  IF NOT FOUND THEN
    SELECT tracking, name INTO tracked, named FROM products WHERE id = NEW.product_id FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Product not found' USING ERRCODE = 'IMS02';
    END IF;
    IF tracked = 'none' OR NEW.lot_id IS NOT NULL THEN
      RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
    END IF;
    IF NEW.kind = 'sale' AND NEW.quantity < 0 THEN
      today := store_today();
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
    UPDATE products SET stock = stock + NEW.quantity
    WHERE id = NEW.product_id AND stock + NEW.quantity >= 0;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
    END IF;
  END IF;
  -- The location: units out come from its row, never below zero; units in make the row if need be.
  IF NEW.quantity < 0 THEN
    UPDATE location_stock SET stock = stock + NEW.quantity
    WHERE product_id = NEW.product_id AND location_id = NEW.location_id AND stock + NEW.quantity >= 0
    RETURNING stock INTO after;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Not enough stock' USING ERRCODE = 'IMS01';
    END IF;
  ELSE
    INSERT INTO location_stock AS s (product_id, location_id, stock)
    VALUES (NEW.product_id, NEW.location_id, NEW.quantity)
    ON CONFLICT (product_id, location_id) DO UPDATE SET stock = s.stock + excluded.stock
    RETURNING stock INTO after;
  END IF;
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
