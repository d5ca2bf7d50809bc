-- The expiry job deletes client_link_codes rows by expires_at. Without this index each run read the
-- whole table (tests/hot_queries.rs prices sequential scans out to find such reads).
CREATE INDEX CONCURRENTLY IF NOT EXISTS client_link_codes_expires ON client_link_codes (expires_at);
