DROP TABLE bot_device_lists;
DROP TABLE bot_customers;
DELETE FROM reminder_sends WHERE kind = 'paid';
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_once;
ALTER TABLE reminder_sends DROP COLUMN payment_id;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_client_ref_kind_term_ends_at_key UNIQUE (client_ref, kind, term_ends_at);
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check CHECK (kind IN ('expiring_72', 'expiring_24', 'expired'));
