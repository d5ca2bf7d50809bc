ALTER TABLE invoices DROP COLUMN promo;
DROP TABLE promo_uses;
DROP TABLE promo_codes;
