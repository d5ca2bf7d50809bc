-- The check that every invoice paid in the last days has the access it bought reads succeeded
-- invoices by paid_at (docs/decisions.md, "Nothing paid without access"); without this index
-- each check would read the whole table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS invoices_paid ON invoices (paid_at, payment_id) WHERE paid_at IS NOT NULL;
