-- Issue 42: a refund's journal entry (post_refund.sql) reads the refund's movements by refund_id at
-- commit, while the transaction holds the day's figure rows every sale and refund of the day updates;
-- without an index each refund read the whole ledger twice, and at a million orders refunds at 50 a
-- second queued for minutes behind one another.
CREATE INDEX "stock_movements_refund_idx" ON "stock_movements" USING btree ("refund_id") WHERE "stock_movements"."refund_id" is not null;