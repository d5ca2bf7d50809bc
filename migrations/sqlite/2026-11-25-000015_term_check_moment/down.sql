DROP INDEX reminder_sends_due_by_account;
DROP INDEX subscriptions_term_check;
ALTER TABLE subscriptions DROP COLUMN next_check_at;
