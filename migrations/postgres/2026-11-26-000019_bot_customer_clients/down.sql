DROP INDEX bot_customers_client;
ALTER TABLE bot_customers DROP COLUMN client_ref;
