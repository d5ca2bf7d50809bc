-- The platform's operators (issue 59, "the operator's view"): people who sign in at /operator
-- to see every account's sales and what the platform owes partners. Invited by `vp-api operator
-- invite` like cabinet users, but of no account: tables of their own (cabinet_users.account_id
-- is required, and the release before reads it). Link and session tokens are stored only as
-- SHA-256 hashes, passwords only as Argon2id hashes; failed sign-ins share
-- cabinet_sign_in_failures, so one address's lockout holds at both doors. Every page an
-- operator opens is written to operator_audit with what it showed.
CREATE TABLE operators (
    id TEXT PRIMARY KEY NOT NULL,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);

CREATE TABLE operator_links (
    token_hash TEXT PRIMARY KEY NOT NULL,
    operator_id TEXT NOT NULL REFERENCES operators (id),
    purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'reset')),
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX operator_links_operator ON operator_links (operator_id);

CREATE TABLE operator_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    operator_id TEXT NOT NULL REFERENCES operators (id),
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);
CREATE INDEX operator_sessions_last_seen ON operator_sessions (last_seen_at);
-- A session also ends at its age limit, whatever its last use: the expiry job reads both.
CREATE INDEX operator_sessions_created ON operator_sessions (created_at);

CREATE TABLE operator_audit (
    id TEXT PRIMARY KEY NOT NULL,
    operator_id TEXT REFERENCES operators (id),
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX operator_audit_at ON operator_audit (at, id);
