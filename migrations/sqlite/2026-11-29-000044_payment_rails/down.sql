ALTER TABLE invoices DROP COLUMN rail;
ALTER TABLE payment_methods DROP COLUMN gateway;
