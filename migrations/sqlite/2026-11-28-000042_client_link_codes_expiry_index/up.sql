-- The expiry job deletes client_link_codes by expires_at (PostgreSQL's migration says more).
CREATE INDEX client_link_codes_expires ON client_link_codes (expires_at);
