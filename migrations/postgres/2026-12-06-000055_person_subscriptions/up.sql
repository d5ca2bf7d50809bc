-- A person of a partner's bot may hold several subscriptions, each its own client of the
-- account (docs/decisions.md, "Several subscriptions per person"). The first is the client
-- bot_customers.client_ref links; each further one is a row here, numbered from 1, named by the
-- person. A row without a name is one the bot asked the person to name and still waits for.
CREATE TABLE person_subscriptions (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    user_id BIGINT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 1),
    client_id TEXT NOT NULL,
    name TEXT NULL,
    asked_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, user_id, position),
    UNIQUE (account_id, client_id)
);
