-- Called at every start with the server's TZ (report-time-zone.ts); answers whether it changed
-- the zone (and so recounted, decision 0013). The settings row is locked first, so that of several
-- servers starting at once one recounts and the others, once it is done, find the zone set. Writes
-- to orders wait meanwhile (SHARE lock), so that no order is counted twice or missed.
-- Needs: report_settings.time_zone, the orders table (locked); sales_days_rebuild().
CREATE OR REPLACE FUNCTION sales_days_use_time_zone(zone text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- An unknown zone is refused here, before anything is locked.
  PERFORM now() AT TIME ZONE zone;
  IF EXISTS (SELECT 1 FROM report_settings WHERE time_zone = zone) THEN
    RETURN false;
  END IF;
  PERFORM 1 FROM report_settings FOR UPDATE;
  IF EXISTS (SELECT 1 FROM report_settings WHERE time_zone = zone) THEN
    RETURN false;
  END IF;
  LOCK TABLE orders IN SHARE MODE;
  UPDATE report_settings SET time_zone = zone;
  PERFORM sales_days_rebuild();
  RETURN true;
END $$;
