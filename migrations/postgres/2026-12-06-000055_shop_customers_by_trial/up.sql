-- A web shop customer may be linked by a trial started on the account page, which has no
-- payment: the purchase that made the link is then none. Dropping NOT NULL changes only the
-- catalogue (no rewrite, no long lock).
ALTER TABLE shop_customers ALTER COLUMN first_payment_id DROP NOT NULL;
