-- What a shop bot held for its customers when an import brought them over: the partner's record
-- of what they owe their customers, not money the platform holds or moved.
CREATE TABLE imported_balances (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    source TEXT NOT NULL,
    source_customer_id BIGINT NOT NULL,
    telegram_id BIGINT NULL,
    client_ref TEXT NULL REFERENCES clients (id),
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    imported_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, source, source_customer_id)
);
CREATE INDEX imported_balances_client ON imported_balances (client_ref);
