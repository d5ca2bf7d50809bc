DROP INDEX cabinet_sessions_created;
