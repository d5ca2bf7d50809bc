-- A web shop customer may hold several subscriptions, each its own client of the account
-- (docs/decisions.md, "Several subscriptions per person"). The first is the client
-- shop_customers links the address to; each further one is a row here, numbered from 1, named
-- by the customer, with the client_id its client has (made by its first invoice) or will have.
CREATE TABLE shop_subscriptions (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 1),
    client_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, email, position),
    UNIQUE (account_id, client_id)
);
