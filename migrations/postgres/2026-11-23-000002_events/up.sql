-- Events and their delivery: the transactional outbox. An event's body is stored as sent.

CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    url TEXT NOT NULL,
    event_types TEXT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    secret_rotated_at TIMESTAMP,
    enabled BOOLEAN NOT NULL,
    disabled_reason TEXT,
    failing_since TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at);

CREATE TABLE events (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    occurred_at TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX events_account ON events (account_id, created_at);

CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    event_id TEXT NOT NULL REFERENCES events (id),
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL CHECK (attempts >= 0),
    next_attempt_at TIMESTAMP NOT NULL,
    locked_until TIMESTAMP,
    delivered_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);

-- `attempt` counts within the delivery's current schedule: a replay starts again at 1.
CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY NOT NULL,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id),
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    attempted_at TIMESTAMP NOT NULL,
    status_code INTEGER,
    duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
    error TEXT
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at);

CREATE INDEX subscriptions_term_end ON subscriptions (status, expires_at);
