DROP INDEX CONCURRENTLY IF EXISTS subscriptions_panel_id;
