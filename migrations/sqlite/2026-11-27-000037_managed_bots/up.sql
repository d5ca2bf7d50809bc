-- Managed bots (docs/telegram.md, "Managed bots"): a bot created through the platform's bot,
-- whose token the platform gets and replaces itself, and the one-time codes of the links that
-- start it. A constant default: no rewrite of partner_bots, no long lock.
ALTER TABLE partner_bots ADD COLUMN managed BOOLEAN NOT NULL DEFAULT false;
CREATE TABLE bot_create_codes (
    code_hash TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    request_id INTEGER NOT NULL,
    requested_by_user TEXT NULL,
    requested_by TEXT NOT NULL,
    lang TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    opened_by BIGINT NULL
);
CREATE INDEX bot_create_codes_opened_by ON bot_create_codes (opened_by) WHERE opened_by IS NOT NULL;
