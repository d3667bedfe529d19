-- Locations (DESIGN §17): the location a write that names none takes or puts stock at, the
-- store's default (store_settings.default_location_id), else the first location made (`Main
-- store`, migration 0029). The default of every location_id column that has one.
-- Needs: store_settings (id, default_location_id), locations (id, created_at).
CREATE OR REPLACE FUNCTION default_location() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT default_location_id FROM store_settings WHERE id = 1),
                  (SELECT id FROM locations ORDER BY created_at, id LIMIT 1))
$$;
