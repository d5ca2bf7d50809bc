-- When the term check can next find something due for a subscription (the next reminder
-- window opens, or the term ends); NULL when nothing ever will (lifetime, expired). Written
-- with every change from `term_events::next_check_at`, so a check reads only the terms whose
-- moment has come, in the order of this index, instead of every term in the 72-hour window.
ALTER TABLE subscriptions ADD COLUMN next_check_at TIMESTAMP;
UPDATE subscriptions SET next_check_at = CASE
    WHEN lifetime OR status = 'expired' THEN NULL
    WHEN status = 'suspended' THEN expires_at
    WHEN NOT is_trial AND NOT reminder_72_sent THEN strftime('%Y-%m-%d %H:%M:%f', expires_at, '-72 hours')
    WHEN NOT reminder_24_sent THEN strftime('%Y-%m-%d %H:%M:%f', expires_at, '-24 hours')
    ELSE expires_at
END;
CREATE INDEX subscriptions_term_check ON subscriptions (next_check_at, client_ref) WHERE next_check_at IS NOT NULL;

-- The reminder worker claims one account's due reminders at a time.
CREATE INDEX reminder_sends_due_by_account ON reminder_sends (account_id, next_attempt_at);
