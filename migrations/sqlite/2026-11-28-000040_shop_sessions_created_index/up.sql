-- The expiry job deletes shop_sessions by created_at (PostgreSQL's migration says more).
CREATE INDEX shop_sessions_created ON shop_sessions (created_at);
