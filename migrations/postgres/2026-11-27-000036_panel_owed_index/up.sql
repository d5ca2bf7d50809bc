-- The panel sync's queue: subscriptions whose revision the panel has not taken yet, oldest
-- change first. Without it each sync read the whole change_seq index past every synced
-- subscription (`just bench --scale`: 20,001 rows filtered to find none; a million at 1M).
CREATE INDEX CONCURRENTLY IF NOT EXISTS subscriptions_panel_owed ON subscriptions (change_seq) WHERE revision > panel_revision;
