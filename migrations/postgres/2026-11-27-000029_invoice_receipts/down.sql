ALTER TABLE invoices DROP COLUMN receipt;
