ALTER TABLE subscriptions DROP COLUMN auto_renew;
