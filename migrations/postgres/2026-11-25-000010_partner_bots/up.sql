-- A partner's own Telegram bot, run by the platform under the partner's brand (one per
-- account). The token is kept only sealed (AES-256-GCM under VP_SECRETS_KEY, `token_sealed`)
-- and as its SHA-256 (`token_hash`), which finds a token connected to another account.
CREATE TABLE partner_bots (
    account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts (id),
    bot_id BIGINT NOT NULL UNIQUE,
    username TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_sealed TEXT NOT NULL,
    connected_at TIMESTAMP NOT NULL,
    disconnected_at TIMESTAMP,
    -- The profile (name, descriptions, commands) to show, and the one Telegram shows: a sync
    -- is owed while profile_synced < profile_revision, retried with backoff.
    profile_revision BIGINT NOT NULL DEFAULT 1,
    profile_synced BIGINT NOT NULL DEFAULT 0,
    profile_attempts INTEGER NOT NULL DEFAULT 0,
    profile_retry_at TIMESTAMP,
    profile_error TEXT
);
