-- The people who buy in an account's web shop, linked to their client by the email they gave
-- (docs/decisions.md, "The web shop"), as bot customers are by their Telegram user.
CREATE TABLE shop_customers (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    client_ref TEXT NOT NULL UNIQUE REFERENCES clients (id),
    lang TEXT NOT NULL,
    first_payment_id TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, email)
);
