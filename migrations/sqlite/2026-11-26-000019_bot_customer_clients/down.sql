-- SQLite drops a column with a reference only by rebuilding the table.
CREATE TABLE bot_customers_old (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    user_id BIGINT NOT NULL,
    chat_id BIGINT NOT NULL,
    started_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, user_id)
);
INSERT INTO bot_customers_old SELECT account_id, user_id, chat_id, started_at, last_seen_at FROM bot_customers;
DROP TABLE bot_customers;
ALTER TABLE bot_customers_old RENAME TO bot_customers;
CREATE INDEX bot_customers_started ON bot_customers (account_id, started_at);
