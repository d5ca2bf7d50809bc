DELETE FROM reminder_sends WHERE kind = 'renewal_declined';
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid'));
