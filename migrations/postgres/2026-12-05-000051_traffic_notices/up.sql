-- Customers are told at 80 % and at 100 % of a traffic limit through the reminders' outbox:
-- the kinds' check is widened, NOT VALID so that no scan of existing rows holds writers out.
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid', 'renewal_declined', 'referral',
        'traffic_80', 'traffic_100')) NOT VALID;
