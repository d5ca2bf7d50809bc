DROP TABLE daily_counts;
