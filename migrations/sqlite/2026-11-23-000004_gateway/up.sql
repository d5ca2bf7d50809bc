-- A payment method may name the gateway's own method type it maps to (YooKassa's
-- payment_method_data.type); none lets the customer choose on the gateway's page.
ALTER TABLE payment_methods ADD COLUMN gateway_type TEXT;

-- What the gateway was first asked for under an idempotency key, so that a resumed request
-- (a retry after a 503, or the completer after a crash) sends it byte-identically.
ALTER TABLE idempotency_keys ADD COLUMN gateway_request TEXT;

-- Reconciliation: when the gateway should next be asked about a payment still pending there
-- (NULL: never again), and how many times it was asked.
ALTER TABLE invoices ADD COLUMN gateway_check_at TIMESTAMP;
ALTER TABLE invoices ADD COLUMN gateway_checks INTEGER NOT NULL DEFAULT 0;
CREATE INDEX invoices_gateway_check ON invoices (gateway_check_at);
CREATE INDEX invoices_gateway_payment ON invoices (gateway_payment_id);
