-- The expiry job deletes bot_create_codes rows by expires_at. Without this index each run read the
-- whole table (tests/hot_queries.rs prices sequential scans out to find such reads).
CREATE INDEX CONCURRENTLY IF NOT EXISTS bot_create_codes_expires ON bot_create_codes (expires_at);
