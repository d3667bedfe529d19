-- The store's day of a moment (DESIGN §19: an entry is dated on its event's day), in the report
-- time zone as store_today() reads it.
-- Needs: report_settings.time_zone. Called by the posting functions (journal_source_posted).
CREATE OR REPLACE FUNCTION store_day(at timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (at AT TIME ZONE coalesce((SELECT time_zone FROM report_settings LIMIT 1), 'UTC'))::date
$$;
