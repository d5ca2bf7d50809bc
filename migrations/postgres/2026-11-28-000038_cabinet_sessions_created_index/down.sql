DROP INDEX CONCURRENTLY IF EXISTS cabinet_sessions_created;
