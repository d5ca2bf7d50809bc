-- The account's web shop address, /shop/{slug} (docs/decisions.md, "The web shop"): a table of
-- its own, filled when an account is created and, for accounts made before it, at start.
CREATE TABLE shop_slugs (
    account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts (id),
    slug TEXT NOT NULL UNIQUE,
    updated_at TIMESTAMP NOT NULL
);
