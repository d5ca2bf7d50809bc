DELETE FROM shop_customers WHERE first_payment_id IS NULL;
ALTER TABLE shop_customers ALTER COLUMN first_payment_id SET NOT NULL;
