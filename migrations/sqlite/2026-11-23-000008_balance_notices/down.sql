DROP INDEX invoices_client;
DROP TABLE notice_sends;
DROP TABLE chat_link_codes;
DROP TABLE partner_chats;
DROP TABLE partner_notices;
DROP TABLE withdrawals;
CREATE TABLE ledger_entries_prev (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    payment_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('partner_share_credit', 'partner_share_reversal')),
    amount BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (payment_id, kind)
);
INSERT INTO ledger_entries_prev (id, account_id, payment_id, kind, amount, created_at)
    SELECT id, account_id, payment_id, kind, amount, created_at FROM ledger_entries WHERE payment_id IS NOT NULL;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_prev RENAME TO ledger_entries;
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, created_at);
