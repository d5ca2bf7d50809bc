CREATE TABLE shop_customers_old (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    client_ref TEXT NOT NULL UNIQUE REFERENCES clients (id),
    lang TEXT NOT NULL,
    first_payment_id TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, email)
);
INSERT INTO shop_customers_old SELECT account_id, email, client_ref, lang, first_payment_id, created_at
FROM shop_customers WHERE first_payment_id IS NOT NULL;
DROP TABLE shop_customers;
ALTER TABLE shop_customers_old RENAME TO shop_customers;
