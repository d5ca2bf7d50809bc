-- Whether automatic renewal is on for the client (docs/decisions.md, "Automatic renewal"): written
-- only when a consent's saved method is kept or renewal is turned off, never by the writes of
-- the term itself, so a term check and a consent at once cannot lose it.
ALTER TABLE subscriptions ADD COLUMN auto_renew BOOLEAN NOT NULL DEFAULT false;
