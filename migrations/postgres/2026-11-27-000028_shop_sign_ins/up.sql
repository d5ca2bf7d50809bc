-- Customers of a web shop sign in by email (docs/decisions.md, "Customer accounts"): the codes
-- sent, and the sessions they open.
CREATE TABLE shop_sign_ins (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    link_hash TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    tries_left INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP NULL
);
CREATE INDEX shop_sign_ins_address ON shop_sign_ins (account_id, email, created_at);
CREATE INDEX shop_sign_ins_source ON shop_sign_ins (source, created_at);
CREATE TABLE shop_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL
);
