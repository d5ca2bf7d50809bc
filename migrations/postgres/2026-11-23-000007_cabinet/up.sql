-- The partner cabinet: its users (several per account), one-time set-password links, sessions,
-- failed sign-ins (for the lockout) and the audit log shown on the Activity page. Link and
-- session tokens are stored only as SHA-256 hashes; passwords only as Argon2id hashes.
CREATE TABLE cabinet_users (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);
CREATE INDEX cabinet_users_account ON cabinet_users (account_id, created_at);

CREATE TABLE cabinet_links (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES cabinet_users (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'reset')),
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX cabinet_links_user ON cabinet_links (user_id);

CREATE TABLE cabinet_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES cabinet_users (id),
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL
);
CREATE INDEX cabinet_sessions_user ON cabinet_sessions (user_id);
CREATE INDEX cabinet_sessions_last_seen ON cabinet_sessions (last_seen_at);

CREATE TABLE cabinet_sign_in_failures (
    id TEXT PRIMARY KEY NOT NULL,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX cabinet_sign_in_failures_email ON cabinet_sign_in_failures (email, at);
CREATE INDEX cabinet_sign_in_failures_address ON cabinet_sign_in_failures (address, at);

CREATE TABLE cabinet_audit (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    user_id TEXT,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX cabinet_audit_account ON cabinet_audit (account_id, at, id);

-- When an address was disabled (the cabinet says since when).
ALTER TABLE webhook_endpoints ADD COLUMN disabled_at TIMESTAMP;
