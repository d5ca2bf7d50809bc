-- The expiry job deletes cabinet_sessions rows by created_at. Without this index each run read the
-- whole table (tests/hot_queries.rs prices sequential scans out to find such reads).
-- A session also ends at its age limit, whatever its last use.
CREATE INDEX CONCURRENTLY IF NOT EXISTS cabinet_sessions_created ON cabinet_sessions (created_at);
