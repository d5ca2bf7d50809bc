-- Money is integer kopecks; timestamps are UTC text as diesel writes them
-- ("YYYY-MM-DD HH:MM:SS[.ffffff]"), which sorts and compares in time order.

CREATE TABLE accounts (
    id TEXT PRIMARY KEY NOT NULL,
    brand_name TEXT NOT NULL,
    markup_bp INTEGER NOT NULL CHECK (markup_bp >= 0),
    trial_enabled BOOLEAN NOT NULL,
    api_enabled BOOLEAN NOT NULL,
    limit_requests_per_minute INTEGER,
    limit_payments_per_minute INTEGER,
    limit_new_clients_per_day INTEGER,
    limit_trials_per_day INTEGER,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at);

CREATE TABLE plans (
    plan_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    months INTEGER NOT NULL CHECK (months >= 0),
    lifetime BOOLEAN NOT NULL,
    device_limited BOOLEAN NOT NULL,
    platform_price BIGINT NOT NULL CHECK (platform_price >= 0),
    created_at TIMESTAMP NOT NULL,
    withdrawn_at TIMESTAMP
);

CREATE TABLE device_settings (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    included INTEGER NOT NULL,
    max_devices INTEGER NOT NULL,
    platform_price BIGINT,
    CHECK (included >= 1 AND included <= max_devices),
    CHECK (platform_price IS NULL OR platform_price > 0)
);

CREATE TABLE payment_methods (
    code TEXT PRIMARY KEY NOT NULL,
    name_en TEXT NOT NULL,
    name_ru TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    position INTEGER NOT NULL
);

CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE clients (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_id TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    blocked BOOLEAN NOT NULL,
    UNIQUE (account_id, client_id)
);
CREATE INDEX clients_account_order ON clients (account_id, created_at, id);

CREATE TABLE subscriptions (
    client_ref TEXT PRIMARY KEY NOT NULL REFERENCES clients (id),
    status TEXT NOT NULL CHECK (status IN ('active', 'expired', 'suspended')),
    is_trial BOOLEAN NOT NULL,
    lifetime BOOLEAN NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    term_started_at TIMESTAMP NOT NULL,
    devices_unlimited BOOLEAN NOT NULL,
    devices_included INTEGER NOT NULL CHECK (devices_included >= 0),
    devices_purchased INTEGER NOT NULL CHECK (devices_purchased >= 0),
    reminder_72_sent BOOLEAN NOT NULL,
    reminder_24_sent BOOLEAN NOT NULL,
    link_rotated_at TIMESTAMP,
    link_token TEXT NOT NULL UNIQUE,
    revision BIGINT NOT NULL,
    panel_revision BIGINT NOT NULL,
    -- Store-assigned order of the last revision change, for "oldest change first" syncing.
    change_seq BIGINT NOT NULL
);
CREATE INDEX subscriptions_change_seq ON subscriptions (change_seq);

CREATE TABLE invoices (
    payment_id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL REFERENCES clients (id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'expired')),
    purpose TEXT NOT NULL CHECK (purpose IN ('subscription', 'devices')),
    plan_id INTEGER,
    devices INTEGER,
    method TEXT NOT NULL,
    amount BIGINT NOT NULL,
    platform_amount BIGINT NOT NULL,
    partner_share BIGINT NOT NULL,
    return_url TEXT,
    payment_url TEXT,
    gateway_payment_id TEXT,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    paid_at TIMESTAMP,
    CHECK ((purpose = 'subscription' AND plan_id IS NOT NULL AND devices IS NULL)
        OR (purpose = 'devices' AND devices IS NOT NULL AND plan_id IS NULL))
);
CREATE INDEX invoices_due ON invoices (status, expires_at);
CREATE INDEX invoices_account ON invoices (account_id, created_at);

CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    key TEXT NOT NULL,
    request_fingerprint TEXT NOT NULL,
    payment_id TEXT NOT NULL,
    recovery_point TEXT NOT NULL CHECK (recovery_point IN ('started', 'finished')),
    locked_until TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_unfinished ON idempotency_keys (recovery_point, locked_until);

CREATE TABLE ledger_entries (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    payment_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('partner_share_credit', 'partner_share_reversal')),
    amount BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (payment_id, kind)
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, created_at);

-- One trial per client, ever: the primary key is the client.
CREATE TABLE trial_grants (
    client_ref TEXT PRIMARY KEY NOT NULL REFERENCES clients (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    granted_at TIMESTAMP NOT NULL
);
CREATE INDEX trial_grants_account ON trial_grants (account_id, granted_at);

CREATE TABLE local_panel_users (
    user_ref TEXT PRIMARY KEY NOT NULL,
    link_token TEXT NOT NULL UNIQUE,
    expires_at TIMESTAMP NOT NULL,
    device_limit INTEGER,
    enabled BOOLEAN NOT NULL
);

CREATE TABLE local_panel_devices (
    user_ref TEXT NOT NULL REFERENCES local_panel_users (user_ref) ON DELETE CASCADE,
    hwid TEXT NOT NULL,
    platform TEXT,
    os_version TEXT,
    model TEXT,
    user_agent TEXT,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_ref, hwid)
);
