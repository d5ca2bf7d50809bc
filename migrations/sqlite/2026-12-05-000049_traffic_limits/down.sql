ALTER TABLE subscriptions DROP COLUMN traffic_reset;
ALTER TABLE subscriptions DROP COLUMN traffic_limit_bytes;
ALTER TABLE plans DROP COLUMN traffic_reset;
ALTER TABLE plans DROP COLUMN traffic_limit_bytes;
