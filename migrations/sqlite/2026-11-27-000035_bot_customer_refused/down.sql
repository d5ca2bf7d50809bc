ALTER TABLE bot_customers DROP COLUMN refused_at;
