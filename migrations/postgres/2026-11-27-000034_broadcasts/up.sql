-- Broadcasts (docs/decisions.md, "Broadcasts"): a partner's message to the customers of their
-- bot, and each chat it goes to with what became of it. All tables new.
CREATE TABLE broadcasts (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    text TEXT NOT NULL,
    text_ru TEXT NULL,
    button_text TEXT NULL,
    button_url TEXT NULL,
    audience TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('sending', 'paused', 'cancelled', 'done')),
    created_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP NULL
);
CREATE INDEX broadcasts_account ON broadcasts (account_id, created_at);
CREATE INDEX broadcasts_state ON broadcasts (state, created_at);
CREATE TABLE broadcast_chats (
    broadcast_id TEXT NOT NULL REFERENCES broadcasts (id),
    chat_id BIGINT NOT NULL,
    lang TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('left', 'sent', 'blocked', 'failed')),
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP NULL,
    sent_at TIMESTAMP NULL,
    last_error TEXT NULL,
    PRIMARY KEY (broadcast_id, chat_id)
);
CREATE INDEX broadcast_chats_due ON broadcast_chats (broadcast_id, state, next_attempt_at);
