DROP INDEX IF EXISTS daily_channel_sales_day;
