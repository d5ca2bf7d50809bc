DROP INDEX CONCURRENTLY IF EXISTS renewal_charges_payment;
