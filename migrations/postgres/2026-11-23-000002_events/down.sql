DROP INDEX subscriptions_term_end;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE events;
DROP TABLE webhook_endpoints;
