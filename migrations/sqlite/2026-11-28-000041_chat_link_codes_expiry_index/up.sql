-- The expiry job deletes chat_link_codes by expires_at (PostgreSQL's migration says more).
CREATE INDEX chat_link_codes_expires ON chat_link_codes (expires_at);
