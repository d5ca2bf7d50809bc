ALTER TABLE subscriptions DROP COLUMN panel_retry_at;
ALTER TABLE subscriptions DROP COLUMN panel_failures;
