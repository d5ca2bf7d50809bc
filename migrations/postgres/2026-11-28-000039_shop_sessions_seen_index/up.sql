-- The expiry job deletes shop_sessions rows by last_seen_at. Without this index each run read the
-- whole table (tests/hot_queries.rs prices sequential scans out to find such reads).
-- A session ends after its idle time.
CREATE INDEX CONCURRENTLY IF NOT EXISTS shop_sessions_last_seen ON shop_sessions (last_seen_at);
