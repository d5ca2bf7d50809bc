DROP INDEX CONCURRENTLY IF EXISTS bot_create_codes_expires;
