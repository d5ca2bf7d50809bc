DROP INDEX CONCURRENTLY IF EXISTS shop_sessions_last_seen;
