-- One client per adopted panel user: a re-run import finds what it adopted by the panel's id.
-- (One concurrent build per migration: a multi-statement query would be one transaction.)
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS subscriptions_panel_id ON subscriptions (panel_id) WHERE panel_id IS NOT NULL;
