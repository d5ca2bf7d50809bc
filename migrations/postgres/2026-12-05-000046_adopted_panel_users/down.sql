ALTER TABLE subscriptions DROP COLUMN panel_id;
ALTER TABLE subscriptions DROP COLUMN panel_name;
