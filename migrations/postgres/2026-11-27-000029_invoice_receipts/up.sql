-- The fiscal receipt (54-FZ) a payment was sent with, as JSON, for its refund's receipt
-- (docs/decisions.md, "Fiscal receipts"). Nullable: invoices before receipts have none.
ALTER TABLE invoices ADD COLUMN receipt TEXT NULL;
