-- The expiry job deletes bot_create_codes by expires_at (PostgreSQL's migration says more).
CREATE INDEX bot_create_codes_expires ON bot_create_codes (expires_at);
