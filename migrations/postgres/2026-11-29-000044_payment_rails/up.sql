-- Several gateways at once (docs/decisions.md, "Payment rails"): a payment method names the
-- gateway its payments go through (NULL: the default gateway, VP_GATEWAY), and an invoice keeps
-- the rail it was issued on: `stars`, or `gateway[:method]` (NULL: issued before rails were
-- kept, by the one gateway of that time).
ALTER TABLE payment_methods ADD COLUMN gateway TEXT;
ALTER TABLE invoices ADD COLUMN rail TEXT;
