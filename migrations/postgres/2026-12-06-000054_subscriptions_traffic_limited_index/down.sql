DROP INDEX CONCURRENTLY IF EXISTS subscriptions_traffic_limited;
