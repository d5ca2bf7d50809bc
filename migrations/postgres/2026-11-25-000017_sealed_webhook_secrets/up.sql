-- Webhook signing secrets are stored sealed (AES-256-GCM under VP_SECRETS_KEY). The service
-- seals the values still in plain text at its next start, since SQL cannot reach the key.
ALTER TABLE webhook_endpoints RENAME COLUMN secret TO secret_sealed;
ALTER TABLE webhook_endpoints RENAME COLUMN previous_secret TO previous_secret_sealed;
