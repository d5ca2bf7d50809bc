-- A push the panel refused (a 4xx: our bug or a drift) is retried with backoff instead of at
-- every round, and counted until the panel takes it.
ALTER TABLE subscriptions ADD COLUMN panel_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE subscriptions ADD COLUMN panel_retry_at TIMESTAMP;
