-- The sales view (DESIGN §16) finds sales by words of the customer's name: a trigram index like
-- the customers' own (0015). Sales without a customer (catalogue orders among them) are left out.
CREATE INDEX "sales_customer_name_trgm_idx" ON "sales" USING gin ("customer_name" gin_trgm_ops) WHERE "sales"."customer_name" is not null;
