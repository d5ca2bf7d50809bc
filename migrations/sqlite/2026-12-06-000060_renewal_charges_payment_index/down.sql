DROP INDEX IF EXISTS renewal_charges_payment;
