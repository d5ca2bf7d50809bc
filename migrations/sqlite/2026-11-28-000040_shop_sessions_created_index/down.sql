DROP INDEX shop_sessions_created;
