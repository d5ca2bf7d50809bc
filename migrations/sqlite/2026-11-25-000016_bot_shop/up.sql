-- The bot's "payment received" message goes through the reminders' outbox: a kind of its own,
-- once per invoice (its payment_id; '' for the term's reminders, which stay once per term).
-- SQLite changes a CHECK or UNIQUE constraint by rebuilding the table.
CREATE TABLE reminder_sends_new (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL REFERENCES clients (id),
    chat_id BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid')),
    term_ends_at TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP,
    sent_at TIMESTAMP,
    last_error TEXT,
    payment_id TEXT NOT NULL DEFAULT '',
    UNIQUE (client_ref, kind, term_ends_at, payment_id)
);
INSERT INTO reminder_sends_new (id, account_id, client_ref, chat_id, kind, term_ends_at, created_at, attempts,
    next_attempt_at, sent_at, last_error)
SELECT id, account_id, client_ref, chat_id, kind, term_ends_at, created_at, attempts, next_attempt_at, sent_at,
    last_error FROM reminder_sends;
DROP TABLE reminder_sends;
ALTER TABLE reminder_sends_new RENAME TO reminder_sends;
CREATE INDEX reminder_sends_due ON reminder_sends (next_attempt_at);
CREATE INDEX reminder_sends_due_by_account ON reminder_sends (account_id, next_attempt_at);

-- People who started the partner's bot: the bot's shop serves them as the client
-- `telegram:<user_id>` (docs/decisions.md), which exists only from its first invoice or trial.
-- Kept for the cabinet's "bot activity" and `vp-api bot stats` (starts, conversion).
CREATE TABLE bot_customers (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    user_id BIGINT NOT NULL,
    chat_id BIGINT NOT NULL,
    started_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, user_id)
);
CREATE INDEX bot_customers_started ON bot_customers (account_id, started_at);

-- The device list a chat was last shown: its buttons carry an index into it and the list's
-- nonce (Telegram's 64 bytes of button data cannot hold a device id), so a press on an older
-- list is recognised as such and removes nothing.
CREATE TABLE bot_device_lists (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    chat_id BIGINT NOT NULL,
    nonce TEXT NOT NULL,
    -- JSON array of the devices' ids, in the order shown.
    device_ids TEXT NOT NULL,
    listed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, chat_id)
);
