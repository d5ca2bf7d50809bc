-- The paid-access check reads succeeded invoices by paid_at (PostgreSQL's migration says more).
CREATE INDEX invoices_paid ON invoices (paid_at, payment_id) WHERE paid_at IS NOT NULL;
