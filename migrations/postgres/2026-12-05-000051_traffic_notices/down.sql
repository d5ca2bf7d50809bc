DELETE FROM reminder_sends WHERE kind IN ('traffic_80', 'traffic_100');
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid', 'renewal_declined', 'referral')) NOT VALID;
