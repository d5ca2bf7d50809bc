-- When the person's chat last refused the bot's messages (blocked it, or is gone): broadcasts
-- leave it out until the person writes to the bot again (docs/decisions.md, "Broadcasts").
-- Nullable: most chats take the bot's messages.
ALTER TABLE bot_customers ADD COLUMN refused_at TIMESTAMP NULL;
