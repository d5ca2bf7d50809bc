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
-- The inviter hears of a reward through the reminders' outbox: the kinds' check is widened,
-- NOT VALID so that no scan of existing rows holds writers out (new rows are checked).
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid', 'renewal_declined', 'referral')) NOT VALID;
