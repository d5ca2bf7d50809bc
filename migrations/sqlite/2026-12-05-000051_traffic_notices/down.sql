DELETE FROM reminder_sends WHERE kind IN ('traffic_80', 'traffic_100');
CREATE TABLE reminder_sends_new (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL REFERENCES clients (id),
    chat_id BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid', 'renewal_declined', 'referral')),
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
    next_attempt_at, sent_at, last_error, payment_id)
SELECT id, account_id, client_ref, chat_id, kind, term_ends_at, created_at, attempts, next_attempt_at, sent_at,
    last_error, payment_id FROM reminder_sends;
DROP TABLE reminder_sends;
ALTER TABLE reminder_sends_new RENAME TO reminder_sends;
CREATE INDEX reminder_sends_due ON reminder_sends (next_attempt_at);
CREATE INDEX reminder_sends_due_by_account ON reminder_sends (account_id, next_attempt_at);
