-- One client per adopted panel user (PostgreSQL's migration says more).
CREATE UNIQUE INDEX subscriptions_panel_id ON subscriptions (panel_id) WHERE panel_id IS NOT NULL;
