-- Referrals (docs/decisions.md, "Referrals"): an account's days per invited customer, each
-- customer's personal code, and the people who came through one with what their first payment
-- gave the inviter. All tables new; the inviter is told through the reminders' outbox.
CREATE TABLE referral_programs (
    account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts (id),
    days INTEGER NOT NULL CHECK (days >= 0),
    updated_at TIMESTAMP NOT NULL
);
CREATE TABLE referral_codes (
    code TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL UNIQUE REFERENCES clients (id),
    created_at TIMESTAMP NOT NULL
);
CREATE TABLE referrals (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    invited_user_id BIGINT NOT NULL,
    inviter_ref TEXT NOT NULL REFERENCES clients (id),
    invited_at TIMESTAMP NOT NULL,
    payment_id TEXT NULL UNIQUE,
    days INTEGER NULL,
    state TEXT NULL CHECK (state IN ('days', 'credit', 'credit_spent', 'reversed')),
    rewarded_at TIMESTAMP NULL,
    spent_payment_id TEXT NULL,
    reversed_at TIMESTAMP NULL,
    PRIMARY KEY (account_id, invited_user_id)
);
CREATE INDEX referrals_inviter ON referrals (inviter_ref);
-- The inviter hears of a reward through the reminders' outbox; SQLite changes a CHECK
-- constraint by rebuilding the table.
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
