-- A promo code a bot customer gave for their next purchase, and when the bot asked for one
-- (docs/decisions.md, "Promo codes"). Nullable: most customers have none.
ALTER TABLE bot_customers ADD COLUMN promo_code TEXT NULL;
ALTER TABLE bot_customers ADD COLUMN promo_asked_at TIMESTAMP NULL;
