-- The panel's webhooks name an adopted user by its name in the panel, one client each.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS subscriptions_panel_name ON subscriptions (panel_name) WHERE panel_name IS NOT NULL;
