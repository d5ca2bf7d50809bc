DROP TABLE renewal_charges;
DROP TABLE renewal_consents;
