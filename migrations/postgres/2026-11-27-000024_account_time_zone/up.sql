-- The zone the account's customers read times in (docs/decisions.md, "Times customers read"),
-- an IANA name checked by the command that sets it.
ALTER TABLE accounts ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/Moscow';
