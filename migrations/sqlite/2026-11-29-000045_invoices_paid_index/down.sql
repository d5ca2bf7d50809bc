DROP INDEX invoices_paid;
