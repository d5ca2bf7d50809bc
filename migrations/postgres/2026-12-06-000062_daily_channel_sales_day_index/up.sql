-- The operator's view sums a range of days across every account: the primary key leads with
-- the account, so the range needs the day first.
CREATE INDEX CONCURRENTLY IF NOT EXISTS daily_channel_sales_day ON daily_channel_sales (day);
