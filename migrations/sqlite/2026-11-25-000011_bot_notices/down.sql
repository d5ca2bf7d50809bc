DELETE FROM notice_sends WHERE notice_id IN (SELECT id FROM partner_notices WHERE kind = 'bot_disconnected');
DELETE FROM partner_notices WHERE kind = 'bot_disconnected';
CREATE TABLE partner_notices_old (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL CHECK (kind IN ('endpoint_disabled', 'withdrawal_paid')),
    subject_id TEXT NOT NULL,
    url TEXT,
    reason TEXT,
    amount BIGINT,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO partner_notices_old SELECT id, account_id, kind, subject_id, url, reason, amount, created_at FROM partner_notices;
CREATE TABLE notice_sends_old (
    notice_id TEXT NOT NULL REFERENCES partner_notices_old (id),
    chat_id BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP,
    sent_at TIMESTAMP,
    last_error TEXT,
    PRIMARY KEY (notice_id, chat_id)
);
INSERT INTO notice_sends_old SELECT notice_id, chat_id, attempts, next_attempt_at, sent_at, last_error FROM notice_sends;
DROP TABLE notice_sends;
DROP TABLE partner_notices;
ALTER TABLE partner_notices_old RENAME TO partner_notices;
ALTER TABLE notice_sends_old RENAME TO notice_sends;
CREATE INDEX partner_notices_account ON partner_notices (account_id, created_at);
CREATE INDEX notice_sends_due ON notice_sends (next_attempt_at);
