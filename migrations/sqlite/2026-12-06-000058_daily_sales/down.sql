DROP TABLE daily_sales;
