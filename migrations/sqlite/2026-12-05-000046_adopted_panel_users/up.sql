-- A subscription whose panel user was adopted from an existing panel (`vp-api import remnawave`)
-- keeps the panel's own name and id for it; NULL for the users we create, which are named after
-- the client reference (docs/remnawave.md, "Importing a panel's users").
ALTER TABLE subscriptions ADD COLUMN panel_name TEXT;
ALTER TABLE subscriptions ADD COLUMN panel_id TEXT;
