DROP TABLE daily_channel_sales;
