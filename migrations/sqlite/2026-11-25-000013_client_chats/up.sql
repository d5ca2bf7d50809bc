-- Customers who linked a chat with their partner's bot ("Get reminders in Telegram"): a client
-- to one chat, a chat to several clients of the same account (a family).
CREATE TABLE client_chats (
    client_ref TEXT PRIMARY KEY NOT NULL REFERENCES clients (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    chat_id BIGINT NOT NULL,
    linked_at TIMESTAMP NOT NULL
);
CREATE INDEX client_chats_by_chat ON client_chats (account_id, chat_id);

-- The language a chat with a partner's bot reads: its Telegram app's at first, then /language.
CREATE TABLE bot_chat_languages (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    chat_id BIGINT NOT NULL,
    lang TEXT NOT NULL,
    PRIMARY KEY (account_id, chat_id)
);

-- One-time codes of "Get reminders in Telegram" links, as SHA-256; valid 24 hours.
CREATE TABLE client_link_codes (
    code_hash TEXT PRIMARY KEY NOT NULL,
    client_ref TEXT NOT NULL REFERENCES clients (id),
    expires_at TIMESTAMP NOT NULL
);
