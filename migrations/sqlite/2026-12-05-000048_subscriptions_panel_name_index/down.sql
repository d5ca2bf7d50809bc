DROP INDEX subscriptions_panel_name;
