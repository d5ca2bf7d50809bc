-- The bot's "payment received" message goes through the reminders' outbox: a kind of its own,
-- once per invoice (its payment_id; '' for the term's reminders, which stay once per term).
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid'));
ALTER TABLE reminder_sends ADD COLUMN payment_id TEXT NOT NULL DEFAULT '';
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_client_ref_kind_term_ends_at_key;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_once UNIQUE (client_ref, kind, term_ends_at, payment_id);

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
