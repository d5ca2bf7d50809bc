-- Plans may carry a traffic limit (bytes, with when the count starts again: docs/decisions.md,
-- "Traffic limits"); a subscription holds the one its last plan set, or an adopted panel user's.
-- NULL: no limit.
ALTER TABLE plans ADD COLUMN traffic_limit_bytes BIGINT;
ALTER TABLE plans ADD COLUMN traffic_reset TEXT;
ALTER TABLE subscriptions ADD COLUMN traffic_limit_bytes BIGINT;
ALTER TABLE subscriptions ADD COLUMN traffic_reset TEXT;
