-- Promo codes (docs/decisions.md, "Promo codes"): a partner's codes, the uses invoices hold,
-- and what a code did to an invoice (as JSON; nullable: most invoices have no code).
CREATE TABLE promo_codes (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    code TEXT NOT NULL,
    benefit TEXT NOT NULL,
    amount BIGINT NOT NULL,
    max_uses INTEGER NULL,
    per_customer INTEGER NOT NULL,
    first_purchase_only BOOLEAN NOT NULL,
    plans TEXT NULL,
    expires_at TIMESTAMP NULL,
    disabled_at TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (account_id, code)
);
CREATE TABLE promo_uses (
    payment_id TEXT PRIMARY KEY NOT NULL,
    promo_id TEXT NOT NULL REFERENCES promo_codes (id),
    account_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX promo_uses_client ON promo_uses (promo_id, client_id);
ALTER TABLE invoices ADD COLUMN promo TEXT NULL;
