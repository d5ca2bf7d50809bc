-- The expiry job deletes shop_sessions by last_seen_at (PostgreSQL's migration says more).
CREATE INDEX shop_sessions_last_seen ON shop_sessions (last_seen_at);
