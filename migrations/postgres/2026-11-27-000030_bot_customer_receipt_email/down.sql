ALTER TABLE bot_customers DROP COLUMN receipt_email;
