-- The ledger carries withdrawals too: an entry is about an invoice or a withdrawal request, and
-- besides the available balance it moves the amount held by open requests. SQLite cannot
-- change a column's constraints, so the table is rebuilt with its rows.
CREATE TABLE ledger_entries_next (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    payment_id TEXT,
    withdrawal_id TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('partner_share_credit', 'partner_share_reversal', 'withdrawal_hold',
        'withdrawal_approval', 'withdrawal_release', 'withdrawal_payout')),
    amount BIGINT NOT NULL,
    held BIGINT NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    CHECK ((payment_id IS NULL) <> (withdrawal_id IS NULL)),
    UNIQUE (payment_id, kind),
    UNIQUE (withdrawal_id, kind)
);
INSERT INTO ledger_entries_next (id, account_id, payment_id, withdrawal_id, kind, amount, held, created_at)
    SELECT id, account_id, payment_id, NULL, kind, amount, 0, created_at FROM ledger_entries;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_next RENAME TO ledger_entries;
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, created_at);

CREATE TABLE withdrawals (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    amount BIGINT NOT NULL CHECK (amount > 0),
    payout_details TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'rejected', 'paid')),
    note TEXT,
    requested_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX withdrawals_account ON withdrawals (account_id, created_at);
CREATE INDEX withdrawals_status ON withdrawals (status, created_at);

-- Messages from the platform to a partner, kept for the cabinet.
CREATE TABLE partner_notices (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL CHECK (kind IN ('endpoint_disabled', 'withdrawal_paid')),
    -- The endpoint or the withdrawal request it is about.
    subject_id TEXT NOT NULL,
    url TEXT,
    reason TEXT,
    amount BIGINT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX partner_notices_account ON partner_notices (account_id, created_at);

-- Messenger chats (Telegram) linked to an account, and the one-time codes that link them.
CREATE TABLE partner_chats (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    chat_id BIGINT NOT NULL,
    linked_by TEXT NOT NULL,
    -- The cabinet language of the person who linked it: notices to the chat are worded in it.
    lang TEXT NOT NULL,
    linked_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, chat_id)
);

CREATE TABLE chat_link_codes (
    code_hash TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    user_id TEXT NOT NULL REFERENCES cabinet_users (id),
    linked_by TEXT NOT NULL,
    lang TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);

-- Each notice on its way to each chat linked when it was made; retried with backoff.
CREATE TABLE notice_sends (
    notice_id TEXT NOT NULL REFERENCES partner_notices (id),
    chat_id BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP,
    sent_at TIMESTAMP,
    last_error TEXT,
    PRIMARY KEY (notice_id, chat_id)
);
CREATE INDEX notice_sends_due ON notice_sends (next_attempt_at);

-- The cabinet's client page lists a client's invoices.
CREATE INDEX invoices_client ON invoices (client_ref, created_at);
