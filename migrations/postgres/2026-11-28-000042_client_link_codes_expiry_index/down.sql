DROP INDEX CONCURRENTLY IF EXISTS client_link_codes_expires;
