-- Notices gain a kind: a partner's bot whose token Telegram stopped accepting. SQLite cannot
-- change a CHECK constraint in place, so the table is rebuilt, with the sends that reference
-- it (rebuilt first, so no row is ever without its notice).
CREATE TABLE partner_notices_new (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL CHECK (kind IN ('endpoint_disabled', 'withdrawal_paid', 'bot_disconnected')),
    -- The endpoint, the withdrawal request or the bot (its id) it is about.
    subject_id TEXT NOT NULL,
    url TEXT,
    reason TEXT,
    amount BIGINT,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO partner_notices_new SELECT id, account_id, kind, subject_id, url, reason, amount, created_at FROM partner_notices;
CREATE TABLE notice_sends_new (
    notice_id TEXT NOT NULL REFERENCES partner_notices_new (id),
    chat_id BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP,
    sent_at TIMESTAMP,
    last_error TEXT,
    PRIMARY KEY (notice_id, chat_id)
);
INSERT INTO notice_sends_new SELECT notice_id, chat_id, attempts, next_attempt_at, sent_at, last_error FROM notice_sends;
DROP TABLE notice_sends;
DROP TABLE partner_notices;
ALTER TABLE partner_notices_new RENAME TO partner_notices;
ALTER TABLE notice_sends_new RENAME TO notice_sends;
CREATE INDEX partner_notices_account ON partner_notices (account_id, created_at);
CREATE INDEX notice_sends_due ON notice_sends (next_attempt_at);
