DROP INDEX IF EXISTS subscriptions_traffic_limited;
