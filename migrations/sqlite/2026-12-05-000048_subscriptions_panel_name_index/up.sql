-- One client per adopted panel user's name (PostgreSQL's migration says more).
CREATE UNIQUE INDEX subscriptions_panel_name ON subscriptions (panel_name) WHERE panel_name IS NOT NULL;
