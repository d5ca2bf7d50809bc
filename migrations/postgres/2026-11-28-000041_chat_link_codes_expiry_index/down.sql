DROP INDEX CONCURRENTLY IF EXISTS chat_link_codes_expires;
