-- A bot customer is a link from the person who uses a partner's bot to the client record the
-- shop serves them as, set when the shop first acts for them; nothing reads the client's id to
-- tell. One person per client.
ALTER TABLE bot_customers ADD COLUMN client_ref TEXT NULL REFERENCES clients (id);
CREATE UNIQUE INDEX bot_customers_client ON bot_customers (client_ref);
-- Until now the shop served a person as the client `telegram:<user id>` of the account; link
-- the ones it made (this one-time step is the only place that spells the old convention).
UPDATE bot_customers SET client_ref = (
    SELECT c.id FROM clients c
    WHERE c.account_id = bot_customers.account_id AND c.client_id = 'telegram:' || bot_customers.user_id
);
