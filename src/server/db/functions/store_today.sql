-- Today in the store's zone (DESIGN §15): the day the report time zone (report_settings, set at
-- every start from TZ) is in now, the day a lot's expiry is judged by. A lot expiring today is
-- still sold today. The one place this day is said: the ledger's trigger, the cart read, the
-- expiring list and the dashboard all call it.
-- Needs: report_settings.time_zone. Called by stock_movements_apply and by queries.
CREATE OR REPLACE FUNCTION store_today() RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (now() AT TIME ZONE coalesce((SELECT time_zone FROM report_settings LIMIT 1), 'UTC'))::date
$$;
