-- Gift subscriptions (docs/decisions.md, "Gift subscriptions"): the invoice that pays for one
-- (the buyer's client's), the SHA-256 of its code (the code is never stored), whom to mail it
-- to, and whether it was redeemed (by which client) or refunded. Paid and lapsing come from
-- the invoice.
CREATE TABLE gifts (
    payment_id TEXT PRIMARY KEY NOT NULL REFERENCES invoices (payment_id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    code_hash TEXT NOT NULL UNIQUE,
    recipient_email TEXT NULL,
    lang TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    redeemed_at TIMESTAMP NULL,
    redeemed_by TEXT NULL REFERENCES clients (id),
    refunded_at TIMESTAMP NULL
);
CREATE INDEX gifts_by_account ON gifts (account_id, created_at);
