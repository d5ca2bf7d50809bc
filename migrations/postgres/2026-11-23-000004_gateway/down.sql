DROP INDEX invoices_gateway_payment;
DROP INDEX invoices_gateway_check;
ALTER TABLE invoices DROP COLUMN gateway_checks;
ALTER TABLE invoices DROP COLUMN gateway_check_at;
ALTER TABLE idempotency_keys DROP COLUMN gateway_request;
ALTER TABLE payment_methods DROP COLUMN gateway_type;
