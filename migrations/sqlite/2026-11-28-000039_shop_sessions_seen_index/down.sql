DROP INDEX shop_sessions_last_seen;
