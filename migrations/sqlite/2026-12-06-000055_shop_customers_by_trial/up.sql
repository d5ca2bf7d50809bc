-- A web shop customer may be linked by a trial started on the account page, which has no
-- payment: the purchase that made the link is then none. SQLite changes a column's
-- constraint by copying the table.
CREATE TABLE shop_customers_new (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    client_ref TEXT NOT NULL UNIQUE REFERENCES clients (id),
    lang TEXT NOT NULL,
    first_payment_id TEXT,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, email)
);
INSERT INTO shop_customers_new SELECT account_id, email, client_ref, lang, first_payment_id, created_at FROM shop_customers;
DROP TABLE shop_customers;
ALTER TABLE shop_customers_new RENAME TO shop_customers;
