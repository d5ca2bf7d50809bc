-- The local panel enforces a subscription's traffic limit: the limit as pushed, the moment its
-- count must start from at the latest, and what its links served since the count started.
ALTER TABLE local_panel_users ADD COLUMN traffic_limit_bytes BIGINT;
ALTER TABLE local_panel_users ADD COLUMN traffic_reset TEXT;
ALTER TABLE local_panel_users ADD COLUMN traffic_counted_from TIMESTAMP;
CREATE TABLE local_panel_traffic (
    user_ref TEXT PRIMARY KEY,
    used_bytes BIGINT NOT NULL,
    counted_since TIMESTAMP NOT NULL
);
