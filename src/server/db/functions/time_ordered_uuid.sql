-- A uuid whose first 48 bits are the time in milliseconds (as a version 7 uuid lays them out; the
-- rest random, its version nibble left as gen_random_uuid's), so that rows keyed by it arrive in
-- key order and their indexes grow at their end (DESIGN §19: journal_entries.id, decision 0047).
-- Needs: nothing. The default of journal_entries.id (migration 0039).
CREATE OR REPLACE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(overlay(uuid_send(gen_random_uuid())
                        PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                        FROM 1 FOR 6), 'hex')::uuid
$$;
