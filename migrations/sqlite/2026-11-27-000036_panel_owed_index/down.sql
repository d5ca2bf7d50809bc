DROP INDEX subscriptions_panel_owed;
