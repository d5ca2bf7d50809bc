-- The expiry job deletes cabinet_sessions by created_at (PostgreSQL's migration says more).
CREATE INDEX cabinet_sessions_created ON cabinet_sessions (created_at);
