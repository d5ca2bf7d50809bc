ALTER TABLE bot_customers DROP COLUMN promo_asked_at;
ALTER TABLE bot_customers DROP COLUMN promo_code;
