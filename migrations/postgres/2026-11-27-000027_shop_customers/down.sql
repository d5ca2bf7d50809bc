DROP TABLE shop_customers;
