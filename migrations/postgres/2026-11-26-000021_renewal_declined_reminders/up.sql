-- The customer's message after an automatic renewal's charge was declined goes through the
-- reminders' outbox: a kind of its own, once per declined invoice (its payment_id).
ALTER TABLE reminder_sends DROP CONSTRAINT reminder_sends_kind_check;
ALTER TABLE reminder_sends ADD CONSTRAINT reminder_sends_kind_check
    CHECK (kind IN ('expiring_72', 'expiring_24', 'expired', 'paid', 'renewal_declined'));
