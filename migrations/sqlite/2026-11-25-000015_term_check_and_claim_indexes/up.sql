-- The term check reads the terms still running (or just ended) in order of their end, a page
-- at a time from a cursor: this index gives them in that order without sorting every term in
-- the 72-hour window at every page. The predicate is the query's own text, so the planner
-- uses it with bound parameters too.
CREATE INDEX subscriptions_term_check ON subscriptions (expires_at, client_ref)
    WHERE status IN ('active', 'suspended') AND NOT lifetime;

-- The reminder worker claims one account's due reminders at a time.
CREATE INDEX reminder_sends_due_by_account ON reminder_sends (account_id, next_attempt_at);
