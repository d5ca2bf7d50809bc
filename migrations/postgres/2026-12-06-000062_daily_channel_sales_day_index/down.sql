DROP INDEX CONCURRENTLY IF EXISTS daily_channel_sales_day;
