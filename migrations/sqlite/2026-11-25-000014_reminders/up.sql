-- Where the platform's reminders send a customer to renew (https only); NULL: the support
-- address of the account's style, else no button.
ALTER TABLE accounts ADD COLUMN renewal_url TEXT;

-- The platform's reminders to customers linked to their partner's bot (spec: rule 6 of the
-- term events), written in the unit of work of the term check that decides them and sent by
-- the reminder worker. At most one of each kind per term: a renewal moves the term's end.
CREATE TABLE reminder_sends (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    client_ref TEXT NOT NULL REFERENCES clients (id),
    chat_id BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('expiring_72', 'expiring_24', 'expired')),
    term_ends_at TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    -- When to try (again); NULL once sent or given up. A claimed send is held here until its
    -- lease ends.
    next_attempt_at TIMESTAMP,
    sent_at TIMESTAMP,
    last_error TEXT,
    UNIQUE (client_ref, kind, term_ends_at)
);
CREATE INDEX reminder_sends_due ON reminder_sends (next_attempt_at);
