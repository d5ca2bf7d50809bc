-- Bots' updates arrive by webhook (any instance) or by polling (one process at a time).
-- `webhook` is what the platform last told Telegram for the bot: the webhook address and the
-- secrets key its secret token came from; NULL while its updates are polled.
ALTER TABLE partner_bots ADD COLUMN webhook TEXT;

-- Every update handled, by bot: a redelivered or twice-received update is handled once.
-- Telegram keeps an update at most 24 hours, so rows older than two days are pruned.
CREATE TABLE bot_updates (
    bot_id BIGINT NOT NULL,
    update_id BIGINT NOT NULL,
    received_at TIMESTAMP NOT NULL,
    PRIMARY KEY (bot_id, update_id)
);
CREATE INDEX bot_updates_received_at ON bot_updates (received_at);

-- Work only one process may do at a time (polling the bots' updates): held by `holder` until
-- `expires_at`, renewed while it runs, taken over once it has run out.
CREATE TABLE leases (
    name TEXT PRIMARY KEY NOT NULL,
    holder TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
