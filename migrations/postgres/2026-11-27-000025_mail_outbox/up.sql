-- The mail outbox (docs/decisions.md, "Mail"): a message is queued in the unit of work of the
-- change it tells of, worded when it is sent, and sent once.
CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT REFERENCES accounts (id),
    to_address TEXT NOT NULL,
    lang TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP,
    sent_at TIMESTAMP,
    given_up_at TIMESTAMP,
    last_error TEXT
);

CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
