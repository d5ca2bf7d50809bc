-- Values sealed meanwhile stay sealed: opening them needs the key, which SQL cannot reach.
ALTER TABLE webhook_endpoints RENAME COLUMN secret_sealed TO secret;
ALTER TABLE webhook_endpoints RENAME COLUMN previous_secret_sealed TO previous_secret;
