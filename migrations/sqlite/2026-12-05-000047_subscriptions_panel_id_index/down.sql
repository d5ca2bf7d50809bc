DROP INDEX subscriptions_panel_id;
